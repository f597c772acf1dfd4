"""Tests of the game store (issue 3), on SQLite and on a private PostgreSQL."""
