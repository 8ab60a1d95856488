"""splendor-cli: play Splendor asynchronously from a terminal, one TOML event log per game."""

__version__ = "0.2.0"
