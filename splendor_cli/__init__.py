"""splendor-cli: play Splendor asynchronously from a terminal, one TOML event log per game."""

__version__ = "0.1.0"
