-- PostgreSQL twin of migrations/0011_turn_log_and_audit_block.sql.
-- A debate stored before the engine kept who spoke when (`log`) gets it from its stored
-- turns, in turn order, as the engine has written it since.
UPDATE debates
SET state = jsonb_set(state::jsonb, '{log}', coalesce((
    SELECT jsonb_agg(jsonb_build_array(t.number, t.seat) ORDER BY t.number)
    FROM turns AS t WHERE t.debate_id = debates.id
), '[]'::jsonb))::text
WHERE coalesce((state::jsonb ->> 'turns')::int, 0) > 0
    AND coalesce(jsonb_array_length(state::jsonb -> 'log'), 0) = 0;

-- An audit notice queued before the audit was a format's `block` named its param `audit`:
-- the param becomes the `block` the rooms now read.
UPDATE debates
SET effects = (
    SELECT jsonb_agg(CASE
        WHEN e.value -> 1 ->> 'kind' = 'notify'
            AND jsonb_typeof(e.value -> 1 -> 'params') = 'array'
        THEN jsonb_set(e.value, '{1,params}', coalesce((
            SELECT jsonb_agg(CASE
                WHEN p.value ->> 0 = 'audit' THEN jsonb_build_array('block', p.value -> 1)
                ELSE p.value
            END ORDER BY p.ordinality)
            FROM jsonb_array_elements(e.value -> 1 -> 'params') WITH ORDINALITY
                AS p (value, ordinality)
        ), '[]'::jsonb))
        ELSE e.value
    END ORDER BY e.ordinality)
    FROM jsonb_array_elements(effects::jsonb) WITH ORDINALITY AS e (value, ordinality)
)::text
WHERE EXISTS (
    SELECT 1 FROM jsonb_array_elements(effects::jsonb) AS e (value),
        jsonb_array_elements(
            CASE WHEN jsonb_typeof(e.value -> 1 -> 'params') = 'array'
            THEN e.value -> 1 -> 'params' ELSE '[]'::jsonb END
        ) AS p (value)
    WHERE e.value -> 1 ->> 'kind' = 'notify' AND p.value ->> 0 = 'audit'
);
