-- PostgreSQL twin of migrations/0010_inbox_answers.sql.
-- An inbox command that answers something only one person may (a question, a pause, the
-- card) names it (`answers`): a second answer to the same thing is not stored, and its sender
-- is told who answered first.
ALTER TABLE debate_inbox ADD COLUMN answers TEXT;
CREATE UNIQUE INDEX debate_inbox_answers ON debate_inbox (debate_id, answers)
WHERE answers IS NOT NULL;
