-- Debates stored before the people's lines (`people`) kept the people's latest answer as
-- `user_answer`: it becomes one of their lines, without a name (who gave it was not kept),
-- which the next brief and judgement carry as they carried the answer.
UPDATE debates
SET state = json_set(
    state,
    '$.people', json_insert(
        coalesce(json_extract(state, '$.people'), json('[]')),
        '$[#]', json_object('who', '', 'text', json_extract(state, '$.user_answer'), 'question', '')
    )
)
WHERE coalesce(json_extract(state, '$.user_answer'), '') <> '';

-- A debate stored before steps waited for its one speaker: that wait becomes the step's ask.
UPDATE debates
SET state = json_set(state, '$.asked', json_array(json_object(
    'participant', json_extract(state, '$.speaker'),
    'turn', coalesce(json_extract(state, '$.turns'), 0) + 1,
    'attempt', coalesce(json_extract(state, '$.attempt'), 0),
    'fresh_session',
    json(CASE WHEN json_extract(state, '$.fresh_session') THEN 'true' ELSE 'false' END)
)))
WHERE json_extract(state, '$.phase') = 'speaking'
    AND json_extract(state, '$.speaker') IS NOT NULL
    AND coalesce(json_array_length(state, '$.asked'), 0) = 0;

-- A debater's ask stored before formats had steps relayed its one turn (`relay_turn`): it
-- becomes the turn step that shows that turn, as the asks stored since do.
UPDATE debates
SET effects = (
    SELECT json_group_array(CASE
        WHEN json_extract(e.value, '$[1].kind') = 'ask_debater'
            AND coalesce(json_extract(e.value, '$[1].step'), '') = ''
        THEN json_set(
            e.value,
            '$[1].step', 'turn',
            '$[1].shows', CASE
                WHEN json_extract(e.value, '$[1].relay_turn') IS NULL THEN json('[]')
                ELSE json_array(json_extract(e.value, '$[1].relay_turn'))
            END
        )
        ELSE json(e.value)
    END)
    FROM (SELECT value FROM json_each(debates.effects) ORDER BY key) AS e
)
WHERE EXISTS (
    SELECT 1 FROM json_each(debates.effects) AS e
    WHERE json_extract(e.value, '$[1].kind') = 'ask_debater'
        AND coalesce(json_extract(e.value, '$[1].step'), '') = ''
);
