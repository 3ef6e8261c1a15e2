-- The engine's storage. Applied once, recorded in schema_migrations; never edit: add a new file.

-- A debate from proposal to end. `state` is the engine's whole Debate as JSON; the
-- other columns are copies for queries.
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
CREATE INDEX debates_phase ON debates (phase);
CREATE INDEX debates_channel ON debates (channel_id, phase);

-- The approval card of a proposal (a debate in phase `proposed`).
CREATE TABLE proposals (
    debate_id        INTEGER PRIMARY KEY REFERENCES debates (id),
    channel_id       INTEGER NOT NULL,
    card_message_id  INTEGER,
    expires_at       TEXT    NOT NULL,
    decided_by       INTEGER,
    decided_at       TEXT
);
CREATE INDEX proposals_expiry ON proposals (expires_at) WHERE decided_at IS NULL;

-- Every debater reply, stored before it is posted anywhere.
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

-- Effects of a stored step, run in id order; done_at set once an effect completed.
CREATE TABLE effects (
    id          INTEGER PRIMARY KEY,
    debate_id   INTEGER NOT NULL REFERENCES debates (id),
    kind        TEXT    NOT NULL,
    payload     TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    done_at     TEXT
);
CREATE INDEX effects_pending ON effects (debate_id, id) WHERE done_at IS NULL;

-- A debater's session per debate (Claude's latest session id, its working directory).
CREATE TABLE agent_sessions (
    debate_id   INTEGER NOT NULL REFERENCES debates (id),
    seat        TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    workdir     TEXT    NOT NULL DEFAULT '',
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (debate_id, seat)
);

-- Every request to the moderator's model, for the daily budget and for cost figures.
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
CREATE INDEX moderator_calls_day ON moderator_calls (day);

-- A day on which the moderator's quota ran out: the rule-based moderator serves until it ends.
CREATE TABLE moderator_quota (
    day     TEXT PRIMARY KEY,
    reason  TEXT NOT NULL,
    at      TEXT NOT NULL
);

-- Wiki writes, applied in order per debate by one writer; dedup_key makes a repeat harmless.
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
CREATE INDEX wiki_outbox_pending ON wiki_outbox (debate_id, id) WHERE done_at IS NULL;

-- What the bot last wrote to each page, to notice a person's edit in between.
CREATE TABLE wiki_pages (
    path          TEXT PRIMARY KEY,
    page_id       TEXT    NOT NULL DEFAULT '',
    content_hash  TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL DEFAULT '',
    written_at    TEXT    NOT NULL
);

-- Messages the front end posted for a debate, by a stable key, so a repeat posts nothing.
CREATE TABLE room_messages (
    debate_id   INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    url         TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (debate_id, key)
);
