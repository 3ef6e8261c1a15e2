-- PostgreSQL twin of migrations/0004_effect_queue.sql (string_agg for SQLite's group_concat).
-- A debate's pending effects are kept in its own row, written in the same statement as the
-- step that queued them: a step is one write instead of three (state, effects, completions).
-- `effects` is a JSON list of [id, effect] in run order; `effect_seq` the last id given.
-- The `effects` table is no longer written: its pending rows move into their debates' rows
-- here (and are marked done there), so a debate left mid-step resumes where it was.
ALTER TABLE debates ADD COLUMN effects TEXT NOT NULL DEFAULT '[]';
ALTER TABLE debates ADD COLUMN effect_seq BIGINT NOT NULL DEFAULT 0;
UPDATE debates SET effect_seq = COALESCE((SELECT MAX(e.id) FROM effects e WHERE e.debate_id = debates.id), 0);
UPDATE debates SET effects = (
    SELECT '[' || string_agg('[' || e.id || ',' || e.payload || ']', ',' ORDER BY e.id) || ']'
    FROM effects e WHERE e.debate_id = debates.id AND e.done_at IS NULL
)
WHERE EXISTS (SELECT 1 FROM effects e WHERE e.debate_id = debates.id AND e.done_at IS NULL);
UPDATE effects SET done_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
WHERE done_at IS NULL;

-- A wiki write's outbox row records, as it is marked done, the page it landed on and the hash
-- of what was written there (one statement where the done mark and a wiki_pages upsert were
-- two). The bot's last write to a page is its newest such row; wiki_pages keeps what earlier
-- releases recorded.
ALTER TABLE wiki_outbox ADD COLUMN written_path TEXT;
ALTER TABLE wiki_outbox ADD COLUMN written_hash TEXT;
CREATE INDEX wiki_outbox_written ON wiki_outbox (written_path, id) WHERE written_hash IS NOT NULL;
