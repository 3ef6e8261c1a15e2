-- A debate belongs to the server it was proposed in: the approvers' commands (`/debate list`,
-- `status`, `stop`, `export`) answer only about the debates of the server they are run in.
-- The proposal carries its server in the stored state (`proposal.guild_id`, since 0008); it
-- becomes a column, backfilled from the state where the state has it. 0: no server recorded
-- (the console's debates, and states written before 0008; the bot gives such a row to the
-- server whose channel holds it when it next sees that server).
ALTER TABLE debates ADD COLUMN guild_id INTEGER NOT NULL DEFAULT 0;
UPDATE debates SET guild_id = json_extract(state, '$.proposal.guild_id')
WHERE json_type(state, '$.proposal.guild_id') = 'integer';
CREATE INDEX debates_guild ON debates (guild_id, phase);
