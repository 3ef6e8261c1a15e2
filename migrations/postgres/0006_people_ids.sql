-- PostgreSQL twin of migrations/0006_people_ids.sql.
-- The people of a debate and its AI seats have different names: a proposal's people were
-- `participants` (user ids) and `participant_names`, while a Participant is an AI seat. The
-- stored state renames them `people_ids` and `people_names`; a state written before
-- `participant_names` existed gets an empty list, as the engine's default gave it.
UPDATE debates
SET state = jsonb_set(
    jsonb_set(
        state::jsonb #- '{proposal,participants}' #- '{proposal,participant_names}',
        '{proposal,people_ids}',
        state::jsonb #> '{proposal,participants}'
    ),
    '{proposal,people_names}',
    coalesce(state::jsonb #> '{proposal,participant_names}', '[]'::jsonb)
)::text
WHERE state::jsonb #> '{proposal,participants}' IS NOT NULL;
