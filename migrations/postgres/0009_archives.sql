-- PostgreSQL twin of migrations/0009_archives.sql.
-- A concluded debate's thread is archived after ARCHIVE_AFTER_HOURS (issue 34): its time is
-- stored when the Conclusion is posted, so a restart keeps it; `done_at` is set once the final
-- message is posted and the thread archived.
CREATE TABLE archives (
    debate_id   BIGINT  PRIMARY KEY REFERENCES debates (id),
    due_at      TEXT    NOT NULL,
    done_at     TEXT
);
CREATE INDEX archives_due ON archives (due_at) WHERE done_at IS NULL;
