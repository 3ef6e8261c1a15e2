"""Money and Claude's limits: what each seat spent, the budget, and a usage limit's pause
until it resets (`Spend`, state.py); its events and how each fits and changes the debate are in
rules.py."""
