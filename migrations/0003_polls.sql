-- The people's poll at a stalemate: its end time, a DB-backed timer that outlives
-- restarts. A row is written once the poll is open in the room; `closed_at` is set once the
-- bot has read its votes. The poll's answers and votes live in the debate's state.
CREATE TABLE polls (
    debate_id   INTEGER PRIMARY KEY REFERENCES debates (id),
    ends_at     TEXT    NOT NULL,
    closed_at   TEXT
);
CREATE INDEX polls_due ON polls (ends_at) WHERE closed_at IS NULL;
