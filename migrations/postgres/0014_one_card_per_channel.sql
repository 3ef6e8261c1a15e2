-- PostgreSQL twin of migrations/0014_one_card_per_channel.sql.
-- One card waits per channel at most, whichever gateway process stores it first (the other's
-- insert does nothing and it stands down); a channel that got two before keeps its first, the
-- others are expired so that the index can hold.
UPDATE debates AS d
SET phase = 'expired', state = jsonb_set(d.state::jsonb, '{phase}', '"expired"')::text,
    effects = '[]'
WHERE d.phase = 'proposed'
  AND d.id > (SELECT min(w.id) FROM debates AS w
              WHERE w.channel_id = d.channel_id AND w.phase = 'proposed');
CREATE UNIQUE INDEX debates_one_waiting_card ON debates (channel_id) WHERE phase = 'proposed';

-- A Discord event (a message, a click) is acted on by the first gateway process to claim its
-- id (a snowflake: old claims are dropped by id).
CREATE TABLE gateway_claims (
    event_id  BIGINT PRIMARY KEY
);
