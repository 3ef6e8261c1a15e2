"""AG (Gemini Pro in the Antigravity IDE) reached through a Discord relay: the prompt posted in
parts (relay.py), AG's reply collected from its messages (collect.py) and read (reply.py)."""
