"""Every SQL statement on `polls`: the debate's one timer, which outlives restarts: the people's
poll's end time, when a usage limit that paused the debate resets (never both at once), or when
a concluded debate's room is archived."""

from __future__ import annotations

# A poll's end is kept by a repeat (after a restart); a finished timer is started again.
INSERT_POLL = """
INSERT INTO polls (debate_id, ends_at) VALUES (?, ?) ON CONFLICT (debate_id)
DO UPDATE SET ends_at = excluded.ends_at, closed_at = NULL WHERE polls.closed_at IS NOT NULL
"""
# A limit's reset time is the CLI's own: it replaces whatever the timer held.
INSERT_RESUME = """
INSERT INTO polls (debate_id, ends_at) VALUES (?, ?) ON CONFLICT (debate_id)
DO UPDATE SET ends_at = excluded.ends_at, closed_at = NULL
"""
SELECT_DUE = """
SELECT debate_id FROM polls WHERE closed_at IS NULL AND ends_at <= ? ORDER BY debate_id
"""
SELECT_NEXT_DUE = "SELECT min(ends_at) FROM polls WHERE closed_at IS NULL AND ends_at > ?"
CLOSE_POLL = "UPDATE polls SET closed_at = ? WHERE debate_id = ? AND closed_at IS NULL"
# Only the timer that fired: one set meanwhile for later (an ended room's archive) stays.
CLOSE_DUE = """
UPDATE polls SET closed_at = ? WHERE debate_id = ? AND closed_at IS NULL AND ends_at <= ?
"""
