"""Steelman: a person asks each side to restate the other side's strongest case, in its best
form, before answering it. Its control (`STEELMAN`), event, slice of the debate (`Steelman`,
state.py) and rules are here; its words are `handlers/locales/<lang>/steelman.toml`, the brief's
instruction `prompts/debate_steelman.<lang>.md`."""
