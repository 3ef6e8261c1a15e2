"""Anonymous peers: each debater reads the others as neutral letters (peers.py), their names
found and replaced however they are spelled (spelling.py). Pure."""
