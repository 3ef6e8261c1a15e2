-- The card's free-text forms (the adversarial evidence) keep each sender's text under their
-- name (`added`), no longer as one option whose value was the last sender's. A stored
-- option's text becomes one entry without a name (who sent it was not kept).
UPDATE debates
SET state = json_set(
    state,
    '$.added', json((
        SELECT json_group_array(json_object(
            'key', json_extract(o.value, '$[0]'), 'user_id', 0, 'who', '',
            'text', json_extract(o.value, '$[1]')
        ))
        FROM json_each(debates.state, '$.options') AS o
        WHERE json_extract(o.value, '$[0]') = 'adversarial.evidence'
    )),
    '$.options', json((
        SELECT json_group_array(json(o.value))
        FROM json_each(debates.state, '$.options') AS o
        WHERE json_extract(o.value, '$[0]') != 'adversarial.evidence'
    ))
)
WHERE EXISTS (
    SELECT 1 FROM json_each(debates.state, '$.options') AS o
    WHERE json_extract(o.value, '$[0]') = 'adversarial.evidence'
);
