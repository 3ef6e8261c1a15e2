-- PostgreSQL twin of migrations/0002_participants.sql.
-- Participants and formats. `turns.seat` and `agent_sessions.seat` now hold a participant's
-- id ("ag", "claude", "gemini", "claude-2", ...): the old seat values are the ids of the
-- default roster, so their rows stay as they are. A debate's format is copied out of its
-- state, like its phase, for queries; the debates of earlier releases all ran `free`.
ALTER TABLE debates ADD COLUMN format TEXT NOT NULL DEFAULT 'free';
