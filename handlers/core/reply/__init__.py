"""A debater's reply read tolerantly: its JSON block found however it is written (parser.py),
and every field the contract does not use kept whole and shown (fields.py). Pure."""
