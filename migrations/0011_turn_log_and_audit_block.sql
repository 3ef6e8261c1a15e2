-- A debate stored before the engine kept who spoke when (`log`) gets it from its stored
-- turns, in turn order, as the engine has written it since.
UPDATE debates
SET state = json_set(state, '$.log', json((
    SELECT json_group_array(json_array(t.number, t.seat))
    FROM (SELECT number, seat FROM turns WHERE debate_id = debates.id ORDER BY number) AS t
)))
WHERE coalesce(json_extract(state, '$.turns'), 0) > 0
    AND coalesce(json_array_length(state, '$.log'), 0) = 0;

-- An audit notice queued before the audit was a format's `block` named its param `audit`:
-- the param becomes the `block` the rooms now read.
UPDATE debates
SET effects = (
    SELECT json_group_array(CASE
        WHEN json_extract(e.value, '$[1].kind') = 'notify' THEN json_set(
            e.value,
            '$[1].params', json((
                SELECT json_group_array(CASE
                    WHEN json_extract(p.value, '$[0]') = 'audit'
                    THEN json_array('block', json_extract(p.value, '$[1]'))
                    ELSE json(p.value)
                END)
                FROM (SELECT value FROM json_each(e.value, '$[1].params') ORDER BY key) AS p
            ))
        )
        ELSE json(e.value)
    END)
    FROM (SELECT value FROM json_each(debates.effects) ORDER BY key) AS e
)
WHERE EXISTS (
    SELECT 1 FROM json_each(debates.effects) AS e, json_each(e.value, '$[1].params') AS p
    WHERE json_extract(e.value, '$[1].kind') = 'notify'
        AND json_extract(p.value, '$[0]') = 'audit'
);
