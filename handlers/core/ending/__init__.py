"""The end of a debate: a person's Stop, the Conclusion written, the outcome told honestly
(`Ending`, state.py); its events and how each fits and changes the debate are in rules.py."""
