-- Debates shared by several processes (workers). A debate is run by the process that
-- holds its lease; `generation` grows with every claim, and every step a process stores is
-- checked against the generation it claimed (fencing), so a process that lost its lease
-- stores nothing more. `expires_at` is in milliseconds since the epoch.
CREATE TABLE debate_leases (
    debate_id   INTEGER PRIMARY KEY,
    owner       TEXT    NOT NULL,
    generation  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);

-- Never holds a row. A step is stored with an INSERT here that selects a row only when the
-- process no longer holds the debate's lease (generation), and the CHECK refuses that row:
-- the whole step is rolled back. One statement in the step's own transaction, so no claim can
-- slip in between the check and the write.
CREATE TABLE debate_lease_fence (
    debate_id  INTEGER NOT NULL CHECK (debate_id < 0)
);

-- Every claim, kept: who ran which debate from when (and over which lapsed lease).
CREATE TABLE debate_lease_claims (
    debate_id         INTEGER NOT NULL,
    generation        INTEGER NOT NULL,
    owner             TEXT    NOT NULL,
    claimed_at        INTEGER NOT NULL,
    lapsed_at         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (debate_id, generation)
);

-- What the gateway received for a debate (a click, a typed answer, words in the thread),
-- consumed in order by the process holding the debate; done_at is set in the transaction that
-- stores the step the command made, so a command is applied once.
CREATE TABLE debate_inbox (
    id          INTEGER PRIMARY KEY,
    debate_id   INTEGER NOT NULL,
    command     TEXT    NOT NULL,
    payload     TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    done_at     TEXT
);
CREATE INDEX debate_inbox_pending ON debate_inbox (debate_id, id) WHERE done_at IS NULL;
