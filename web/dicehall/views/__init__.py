"""One view module per game: `views/<game>.py`."""
