"""A stalemate ends in the people's poll: the minority report, the poll's stages and its votes
(`PeoplePoll`, state.py); its events and how each fits and changes the debate are in rules.py."""
