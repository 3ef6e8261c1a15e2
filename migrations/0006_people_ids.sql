-- The people of a debate and its AI seats have different names: a proposal's people were
-- `participants` (user ids) and `participant_names`, while a Participant is an AI seat. The
-- stored state renames them `people_ids` and `people_names`; a state written before
-- `participant_names` existed gets an empty list, as the engine's default gave it.
UPDATE debates
SET state = json_set(
    json_remove(state, '$.proposal.participants', '$.proposal.participant_names'),
    '$.proposal.people_ids', json(json_extract(state, '$.proposal.participants')),
    '$.proposal.people_names',
    json(coalesce(json_extract(state, '$.proposal.participant_names'), '[]'))
)
WHERE json_type(state, '$.proposal.participants') IS NOT NULL;
