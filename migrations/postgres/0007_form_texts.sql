-- PostgreSQL twin of migrations/0007_form_texts.sql.
-- The card's free-text forms (the adversarial evidence) keep each sender's text under their
-- name (`added`), no longer as one option whose value was the last sender's. A stored
-- option's text becomes one entry without a name (who sent it was not kept).
UPDATE debates
SET state = jsonb_set(
    jsonb_set(
        state::jsonb,
        '{added}',
        coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                'key', o ->> 0, 'user_id', 0, 'who', '', 'text', o ->> 1
            ))
            FROM jsonb_array_elements(state::jsonb -> 'options') AS o
            WHERE o ->> 0 = 'adversarial.evidence'
        ), '[]'::jsonb)
    ),
    '{options}',
    coalesce((
        SELECT jsonb_agg(o)
        FROM jsonb_array_elements(state::jsonb -> 'options') AS o
        WHERE o ->> 0 <> 'adversarial.evidence'
    ), '[]'::jsonb)
)::text
WHERE EXISTS (
    SELECT 1 FROM jsonb_array_elements(state::jsonb -> 'options') AS o
    WHERE o ->> 0 = 'adversarial.evidence'
);
