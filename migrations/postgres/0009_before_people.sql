-- PostgreSQL twin of migrations/0009_before_people.sql.
-- Debates stored before the people's lines (`people`) kept the people's latest answer as
-- `user_answer`: it becomes one of their lines, without a name (who gave it was not kept),
-- which the next brief and judgement carry as they carried the answer.
UPDATE debates
SET state = jsonb_set(
    state::jsonb,
    '{people}',
    coalesce(state::jsonb -> 'people', '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
        'who', '', 'text', state::jsonb ->> 'user_answer', 'question', ''
    ))
)::text
WHERE coalesce(state::jsonb ->> 'user_answer', '') <> '';

-- A debate stored before steps waited for its one speaker: that wait becomes the step's ask.
UPDATE debates
SET state = jsonb_set(state::jsonb, '{asked}', jsonb_build_array(jsonb_build_object(
    'participant', state::jsonb -> 'speaker',
    'turn', coalesce((state::jsonb ->> 'turns')::int, 0) + 1,
    'attempt', coalesce((state::jsonb ->> 'attempt')::int, 0),
    'fresh_session', coalesce((state::jsonb ->> 'fresh_session')::boolean, false)
)))::text
WHERE state::jsonb ->> 'phase' = 'speaking'
    AND jsonb_typeof(state::jsonb -> 'speaker') = 'string'
    AND coalesce(jsonb_array_length(state::jsonb -> 'asked'), 0) = 0;

-- A debater's ask stored before formats had steps relayed its one turn (`relay_turn`): it
-- becomes the turn step that shows that turn, as the asks stored since do.
UPDATE debates
SET effects = (
    SELECT jsonb_agg(CASE
        WHEN e.value -> 1 ->> 'kind' = 'ask_debater'
            AND coalesce(e.value -> 1 ->> 'step', '') = ''
        THEN jsonb_set(e.value, '{1}', (e.value -> 1) || jsonb_build_object(
            'step', 'turn',
            'shows', CASE
                WHEN jsonb_typeof(e.value -> 1 -> 'relay_turn') = 'number'
                THEN jsonb_build_array(e.value -> 1 -> 'relay_turn')
                ELSE '[]'::jsonb
            END
        ))
        ELSE e.value
    END ORDER BY e.ordinality)
    FROM jsonb_array_elements(effects::jsonb) WITH ORDINALITY AS e (value, ordinality)
)::text
WHERE EXISTS (
    SELECT 1 FROM jsonb_array_elements(effects::jsonb) AS e (value)
    WHERE e.value -> 1 ->> 'kind' = 'ask_debater' AND coalesce(e.value -> 1 ->> 'step', '') = ''
);
