"""Wiring and use cases: settings, clock, keys, the chat turn, background jobs and the command line."""
