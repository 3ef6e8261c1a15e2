"""The people in the room: their answers to the moderator's questions, what they type, and the
pauses that wait for their word (`People`, state.py); its events and how each fits and changes
the debate are in rules.py."""
