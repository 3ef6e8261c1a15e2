-- A database as the release before participants and formats (commit 7138920, migration
-- 0001 only) left it: its own engine ran tests/engine's rig (seed 7) until AG was asked
-- turn 2, then the process died. Dumped with sqlite3's iterdump; do not edit by hand.
BEGIN TRANSACTION;
CREATE TABLE agent_sessions (
    debate_id   INTEGER NOT NULL REFERENCES debates (id),
    seat        TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    workdir     TEXT    NOT NULL DEFAULT '',
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (debate_id, seat)
);
CREATE TABLE debates (
    id          INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    topic       TEXT    NOT NULL,
    phase       TEXT    NOT NULL,
    state       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    ended_at    TEXT
);
INSERT INTO "debates" VALUES(1,1,'캐시 계층 선택 — Redis vs in-process LRU','speaking','{"id":1,"proposal":{"channel_id":1,"topic":"캐시 계층 선택 — Redis vs in-process LRU","question":"다음 분기에 어떤 캐시 계층을 쓸 것인가?","reason":"open decision","confidence":0.9,"context":"alice: Redis로 갈지 LRU로 갈지\ncarol: 운영 부담이…","participants":[101,102]},"phase":"speaking","created_at":"2026-11-29T12:00:00Z","max_rounds":3,"round":1,"order":["claude","ag"],"spoken":["claude"],"speaker":"ag","turns":1,"attempt":0,"skipped":0,"fresh_session":false,"relay_turn":1,"note":"","user_answer":"","user_question":null,"first_next_round":null,"stances":[["claude","partial"]],"summary":"summary after 1","working_document":"","moderator_source":"gemini","cost_usd":0.01,"started_at":"2026-11-29T12:00:00Z","ended_at":null,"outcome":null,"approved_by":101,"failure":""}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00',NULL);
CREATE TABLE effects (
    id          INTEGER PRIMARY KEY,
    debate_id   INTEGER NOT NULL REFERENCES debates (id),
    kind        TEXT    NOT NULL,
    payload     TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    done_at     TEXT
);
INSERT INTO "effects" VALUES(1,1,'post_card','{"kind":"post_card"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(2,1,'close_card','{"kind":"close_card"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(3,1,'open_room','{"kind":"open_room"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(4,1,'write_agenda','{"kind":"write_agenda"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(5,1,'notify','{"key":"wiki.agenda_written","params":[["page","agenda"]],"kind":"notify"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(6,1,'notify','{"key":"debate.opening","params":[["seat","claude"]],"kind":"notify"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(7,1,'update_status','{"kind":"update_status"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(8,1,'ask_debater','{"seat":"claude","turn":1,"round":1,"relay_turn":null,"note":"","user_answer":"","fresh_session":false,"delay_s":0.0,"kind":"ask_debater"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(9,1,'post_turn','{"turn":1,"kind":"post_turn"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(10,1,'append_round_log','{"turn":1,"kind":"append_round_log"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(11,1,'update_status','{"kind":"update_status"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(12,1,'judge','{"turn":1,"kind":"judge"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(13,1,'update_status','{"kind":"update_status"}','2026-11-29T12:00:00+00:00','2026-11-29T12:00:00+00:00');
INSERT INTO "effects" VALUES(14,1,'ask_debater','{"seat":"ag","turn":2,"round":1,"relay_turn":1,"note":"","user_answer":"","fresh_session":false,"delay_s":0.0,"kind":"ask_debater"}','2026-11-29T12:00:00+00:00',NULL);
CREATE TABLE moderator_calls (
    id             INTEGER PRIMARY KEY,
    debate_id      INTEGER,
    day            TEXT    NOT NULL,
    purpose        TEXT    NOT NULL,
    model          TEXT    NOT NULL,
    outcome        TEXT    NOT NULL,
    input_chars    INTEGER NOT NULL DEFAULT 0,
    input_tokens   INTEGER NOT NULL DEFAULT 0,
    output_tokens  INTEGER NOT NULL DEFAULT 0,
    latency_ms     INTEGER NOT NULL DEFAULT 0,
    error          TEXT    NOT NULL DEFAULT '',
    created_at     TEXT    NOT NULL
);
CREATE TABLE moderator_quota (
    day     TEXT PRIMARY KEY,
    reason  TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE TABLE proposals (
    debate_id        INTEGER PRIMARY KEY REFERENCES debates (id),
    channel_id       INTEGER NOT NULL,
    card_message_id  INTEGER,
    expires_at       TEXT    NOT NULL,
    decided_by       INTEGER,
    decided_at       TEXT
);
INSERT INTO "proposals" VALUES(1,1,NULL,'2026-11-29T12:30:00+00:00',101,'2026-11-29T12:00:00+00:00');
CREATE TABLE room_messages (
    debate_id   INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    url         TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (debate_id, key)
);
CREATE TABLE schema_migrations (
    version     INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    applied_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO "schema_migrations" VALUES(1,'0001_initial.sql','2026-12-01T01:14:40.488Z');
CREATE TABLE turns (
    debate_id      INTEGER NOT NULL REFERENCES debates (id),
    number         INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    seat           TEXT    NOT NULL,
    text           TEXT    NOT NULL,
    raw            TEXT    NOT NULL,
    sha256         TEXT    NOT NULL,
    parsed         TEXT    NOT NULL,
    model          TEXT    NOT NULL DEFAULT '',
    input_tokens   INTEGER NOT NULL DEFAULT 0,
    output_tokens  INTEGER NOT NULL DEFAULT 0,
    cost_usd       REAL    NOT NULL DEFAULT 0,
    latency_s      REAL    NOT NULL DEFAULT 0,
    num_turns      INTEGER NOT NULL DEFAULT 0,
    session_id     TEXT,
    denied_tools   TEXT    NOT NULL DEFAULT '[]',
    message_url    TEXT,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (debate_id, number)
);
INSERT INTO "turns" VALUES(1,1,1,'claude','Intro.

```json
{"opinion": "claude says 1", "stance": "partial"}
```','RAW<Intro.

```json
{"opinion": "claude says 1", "stance": "partial"}
```>','40a0c3d5b14ddac9cddc382b688c71fb84e2181a6572cb3f684b77c5248c3d54','{"opinion":"Intro.\n\nclaude says 1","wiki_action":null,"question":null,"stance":"partial","structured":true}','claude-model',10,20,0.01,1.5,0,NULL,'[]','https://discord.test/1/1','2026-11-29T12:00:00+00:00');
CREATE TABLE wiki_outbox (
    id               INTEGER PRIMARY KEY,
    debate_id        INTEGER NOT NULL,
    dedup_key        TEXT    NOT NULL UNIQUE,
    path             TEXT    NOT NULL,
    title            TEXT    NOT NULL,
    mode             TEXT    NOT NULL,
    content          TEXT    NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT    NOT NULL DEFAULT '',
    next_attempt_at  TEXT,
    created_at       TEXT    NOT NULL,
    done_at          TEXT
);
CREATE TABLE wiki_pages (
    path          TEXT PRIMARY KEY,
    page_id       TEXT    NOT NULL DEFAULT '',
    content_hash  TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL DEFAULT '',
    written_at    TEXT    NOT NULL
);
CREATE INDEX debates_phase ON debates (phase);
CREATE INDEX debates_channel ON debates (channel_id, phase);
CREATE INDEX proposals_expiry ON proposals (expires_at) WHERE decided_at IS NULL;
CREATE INDEX effects_pending ON effects (debate_id, id) WHERE done_at IS NULL;
CREATE INDEX moderator_calls_day ON moderator_calls (day);
CREATE INDEX wiki_outbox_pending ON wiki_outbox (debate_id, id) WHERE done_at IS NULL;
COMMIT;
