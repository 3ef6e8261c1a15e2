"""The approval card: the people choose a format, its options and a budget, then open the
debate or decline it (`Setup`, state.py); its events and how each fits and changes the debate
are in rules.py."""
