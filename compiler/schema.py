"""The JSON every command prints with --json: one object per command, the same keys for both languages.

SCHEMA_VERSION is the `schema` field of every object; docs/cli.md shows the
keys (`COMMAND_KEYS`), and tests/test_json_schema.py holds every command's
output to them."""

from __future__ import annotations

SCHEMA_VERSION = 1
