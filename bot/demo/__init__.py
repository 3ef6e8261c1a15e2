"""`debate-room demo`: a recorded debate (shipped as JSON) replayed through the real engine."""
