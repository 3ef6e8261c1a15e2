"""Turns: who is asked, answers stored as they arrive, failed asks retried or skipped, and a
person's Skip. Its slice of the debate is `Floor` (state.py); its events and how each fits and
changes the debate are in rules.py."""
