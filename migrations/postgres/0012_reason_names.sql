-- PostgreSQL twin of migrations/0012_reason_names.sql.
-- The adversarial route (the `route` output of debate.outputs, a JSON text) names its reasons
-- by their locale names (`adversarial.reason.<name>`), no longer in the seed's English: each
-- stored reason becomes its name. A counted one (`evidence=3 (<= 6)`) becomes its name alone:
-- the count is the size of the audit's inventory, which the stored audit still holds.
WITH reason(pattern, name) AS (VALUES
    ('no concrete evidence', 'no_evidence'),
    ('requested', 'requested'),
    ('KNOWN_GAPS omitted: treated as unknown', 'gaps_omitted'),
    ('requested tier exceeds evidence depth', 'exceeds_depth'),
    ('high-stakes or hard to reverse', 'high_stakes'),
    ('more than one competing option', 'competing'),
    ('material provenance/language/runtime uncertainty', 'uncertain'),
    ('a known gap could change the direction', 'gap_conflict'),
    ('bounded binary choice', 'bounded'),
    ('tradeoffs or multi-factor evaluation', 'multi_factor'),
    ('evidence=% justifies LITE only', 'lite_only'),
    ('evidence=% (<= 6)', 'within_six')
),
stored AS (
    SELECT d.id, o.at - 1 AS at, (o.pair ->> 1)::jsonb AS route
    FROM debates AS d,
        jsonb_array_elements(d.state::jsonb -> 'outputs') WITH ORDINALITY AS o(pair, at)
    WHERE o.pair ->> 0 = 'route'
)
UPDATE debates
SET state = jsonb_set(
    debates.state::jsonb,
    ARRAY['outputs', s.at::text, '1'],
    to_jsonb(jsonb_set(
        jsonb_set(s.route, '{reasons}', (
            SELECT coalesce(jsonb_agg(coalesce(
                (SELECT name FROM reason WHERE e.value LIKE pattern), e.value
            ) ORDER BY e.at), '[]'::jsonb)
            FROM jsonb_array_elements_text(s.route -> 'reasons') WITH ORDINALITY AS e(value, at)
        )),
        '{thin}', (
            SELECT coalesce(jsonb_agg(coalesce(
                (SELECT name FROM reason WHERE e.value LIKE pattern), e.value
            ) ORDER BY e.at), '[]'::jsonb)
            FROM jsonb_array_elements_text(s.route -> 'thin') WITH ORDINALITY AS e(value, at)
        )
    )::text)  -- the route stays a string, not an object
)::text
FROM stored AS s
WHERE s.id = debates.id;
