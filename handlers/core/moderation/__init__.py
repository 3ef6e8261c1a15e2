"""The moderator's judgement after each step and the format's moderator tasks: the summary,
notes, claim board and consensus meter it keeps (`Moderation`, state.py); its events and how
each fits and changes the debate are in rules.py."""
