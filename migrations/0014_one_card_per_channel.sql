-- Several gateway processes (a rolling deploy, `docker compose --scale`) each receive every
-- message: each may detect the same chat and propose it at once. One card waits per channel
-- at most, whichever process stores it first: the other's insert does nothing (ON CONFLICT DO
-- NOTHING) and it stands down. A check before the insert could not do this: two processes
-- both find no card, then both insert.
-- A channel that got two cards waiting before this release keeps its first; the others are
-- expired, so that the index can hold (their buttons answer "not now").
UPDATE debates
SET phase = 'expired', state = json_set(state, '$.phase', 'expired'), effects = '[]'
WHERE phase = 'proposed'
  AND id > (SELECT min(w.id) FROM debates AS w
            WHERE w.channel_id = debates.channel_id AND w.phase = 'proposed');
CREATE UNIQUE INDEX debates_one_waiting_card ON debates (channel_id) WHERE phase = 'proposed';

-- A Discord event (a message, a click) reaches every gateway process: the first to claim its
-- id acts on it (asks the moderator about the chat, passes the words or the click on), the
-- others stand down. Ids are Discord snowflakes, which grow with time: old claims are
-- dropped by id.
CREATE TABLE gateway_claims (
    event_id  INTEGER PRIMARY KEY
);
