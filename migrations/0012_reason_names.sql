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
    SELECT d.id, o.key AS at, json_extract(o.value, '$[1]') AS route
    FROM debates AS d, json_each(d.state, '$.outputs') AS o
    WHERE json_extract(o.value, '$[0]') = 'route'
)
UPDATE debates
SET state = json_set(
    state,
    '$.outputs[' || s.at || '][1]',
    json_set(
        s.route,
        '$.reasons', json((
            SELECT json_group_array(coalesce(
                (SELECT name FROM reason WHERE e.value LIKE pattern), e.value
            ))
            FROM (SELECT value FROM json_each(s.route, '$.reasons') ORDER BY key) AS e
        )),
        '$.thin', json((
            SELECT json_group_array(coalesce(
                (SELECT name FROM reason WHERE e.value LIKE pattern), e.value
            ))
            FROM (SELECT value FROM json_each(s.route, '$.thin') ORDER BY key) AS e
        ))
    ) || ''  -- plain text, as stored: the route stays a string, not an object
)
FROM stored AS s
WHERE s.id = debates.id;
