"""The JSON every command prints with --json: one object per command, the same keys for both languages.

Every object opens with `schema` (SCHEMA_VERSION, raised when a key changes
meaning or goes), `command`, `game` (the paths) and `language` ("bddl" or
"pg").  A move is `{"side": "black"|"white", "text": ...}` (the text is
what `bddlc play` and `--reply-to` read back).  A key that does not apply is
null, never missing.  docs/cli.md ("JSON output") shows `COMMAND_KEYS` as a
table (`markdown_table`), and tests/compiler/test_json_schema.py holds every
command's output, for a BDDL model and a `.pg` game, to it.
"""

from __future__ import annotations

SCHEMA_VERSION = 1

COMMON_KEYS = ("schema", "command", "game", "language")

COMMAND_KEYS: dict[str, tuple[str, ...]] = {
    "compile": COMMON_KEYS + ("depth", "encoding", "format", "output", "variables", "gates", "clauses", "blocks"),
    "solve": COMMON_KEYS + (
        "black_wins", "depth", "depth_solved", "solver", "answered_by", "first_move", "move_source", "seconds",
        "encoding", "black_first", "preprocess", "preprocess_note", "reason", "reply_to", "reply", "budget_spent",
        "positions", "disagreement", "other_routes", "certificate",
    ),
    "search": COMMON_KEYS + (
        "black_wins", "depth", "first_move", "positions", "algorithm", "positional_rules", "race_patterns",
        "seconds", "budget_spent", "error", "certificate",
    ),
    "depth": COMMON_KEYS + (
        "critical_depth", "first_win", "refuted_before", "results", "monotonicity", "monotonicity_check", "solver",
        "encoding", "min", "max", "budget_spent", "engine",
    ),
    "validate": COMMON_KEYS + (
        "depth", "valid", "black_wins", "lines", "complete", "failure", "reason", "solves", "seconds", "budget_spent",
    ),
    "play": COMMON_KEYS + ("depth", "moves", "outcome", "budget_spent"),
    "regress": COMMON_KEYS + ("entry", "status", "expected", "depth", "checks", "problems", "worker"),
    "certify": COMMON_KEYS + ("valid", "claim", "depth", "nodes", "pairings", "at_once", "reason", "line", "board"),
    "check": COMMON_KEYS + ("depth", "board", "method", "states", "positions", "ok", "conditions", "warnings", "error"),
}


def markdown_table() -> str:
    """COMMAND_KEYS as docs/cli.md shows them."""
    lines = ["| command | keys (in order; the first four are common to all) |", "|---|---|"]
    for command, keys in COMMAND_KEYS.items():
        lines.append(f"| `{command}` | " + ", ".join(f"`{key}`" for key in keys) + " |")
    return "\n".join(lines)
