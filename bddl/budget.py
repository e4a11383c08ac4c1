"""Memory guards and progress for the work that grows with the board.

The lifted encodings and `check` cost what the model costs, whatever the
board; a few things do not and cannot: the explicit and corrective encodings
(a variable per cell and ply), the game-tree search and `check --reachable`
(a table of positions, each a pair of board-sized bitmasks), and
`check --exhaustive` (a SAT instance over every cell).  Each estimates its
memory from the model's numbers before it allocates, and refuses, naming the
option that raises the limit, when the estimate passes it; the searches also
stop when the positions they have stored reach it.  The estimates are
calibrated on measurements (five in a row, docs/benchmarks.md) and err on the
large side.

The limit is one number for the process (`--max-memory`, 2 GB by default):
every command reads it from here, so a guard deep in an encoder needs no new
parameter on every function between it and the command line.
"""

from __future__ import annotations

import sys
import time

DEFAULT_MAX_MEMORY_MB = 2048
MB = 1 << 20

_limit_bytes = DEFAULT_MAX_MEMORY_MB * MB


def set_memory_limit(megabytes: int) -> None:
    """The limit every guard of this process applies (the `--max-memory` option)."""
    global _limit_bytes
    _limit_bytes = megabytes * MB


def memory_limit() -> int:
    """The current limit, in bytes."""
    return _limit_bytes


class MemoryBudgetExceeded(Exception):
    """An estimate (or a count of stored positions) passed the memory limit."""

    def __init__(self, what: str, estimate: int, limit: int, message: str | None = None):
        super().__init__(
            message
            or f"{what} would need about {_size(estimate)}, more than the limit of {_size(limit)}; "
            f"raise it with --max-memory {suggested_limit(estimate, limit)} (megabytes) if the machine has the memory"
        )
        self.what = what
        self.estimate = estimate
        self.limit = limit

    def of_a_share(self, shares: int, limit: int) -> MemoryBudgetExceeded:
        """The same, told against the whole `limit` when this budget was one of
        `shares` equal parts of it (so that the --max-memory it suggests is the
        user's, not the part's)."""
        return MemoryBudgetExceeded(
            self.what,
            self.estimate * shares,
            limit,
            f"{self.what} would need about {_size(self.estimate)}, more than its share (1/{shares}) of the limit of "
            f"{_size(limit)}; raise it with --max-memory {suggested_limit(self.estimate * shares, limit)} (megabytes) "
            "if the machine has the memory",
        )


def suggested_limit(estimate: int, limit: int) -> int:
    """The --max-memory (MB) a refusal suggests: above the estimate, and at least
    double the limit, in whole gigabytes past one.  A search that stops because its
    table filled the limit has an "estimate" of about the limit itself, and one
    megabyte more would stop it again at once."""
    megabytes = max(estimate // MB + 1, 2 * (limit // MB))
    return -(-megabytes // 1024) * 1024 if megabytes > 1024 else megabytes


def _size(n: int) -> str:
    return f"{n / (1 << 30):.1f} GB" if n >= 1 << 30 else f"{max(1, n // MB)} MB"


def require(what: str, estimate: int, limit: int | None = None) -> None:
    """Refuse (raise `MemoryBudgetExceeded`) when `estimate` bytes pass the limit;
    say on stderr that a big job starts when it passes a quarter of it."""
    limit = _limit_bytes if limit is None else limit
    if estimate > limit:
        raise MemoryBudgetExceeded(what, estimate, limit)
    if estimate > 512 * MB:
        print(f"bddlc: {what} will need about {_size(estimate)} of memory", file=sys.stderr)


# -- estimates (bytes), from measurements with some margin -----------------------------------


def state_bytes(cells: int) -> int:
    """One position: two bitmasks of the board's size."""
    return 2 * (cells // 8 + 40)


def stored_position_bytes(cells: int) -> int:
    """A position kept in a search table or a set of seen positions, with its frontier copy."""
    return 400 + 2 * state_bytes(cells)


def engine_bytes(cells: int, placements: int) -> int:
    """The engine's tables for one game: the outcomes of every (action,
    position), `placements` of them, each a few bitmasks reaching up to the
    position's bit (so cells/16 bytes each on average), and the compiled masks."""
    return placements * (500 + 3 * (cells // 16)) + 64 * (cells // 8 + 40)


def max_stored_positions(cells: int, placements: int, limit: int | None = None) -> int:
    """How many positions a search may store before the limit: what is left
    after the engine's tables, per position."""
    limit = _limit_bytes if limit is None else limit
    return max(0, limit - engine_bytes(cells, placements)) // stored_position_bytes(cells)


class Progress:
    """Lines on stderr for long work: nothing in the first `after` seconds
    (quick runs stay quiet), then at most one line every `every` seconds."""

    def __init__(self, what: str, after: float = 3.0, every: float = 5.0, stream=None):
        self.what = what
        self.start = time.monotonic()
        self.next = self.start + after
        self.every = every
        self.stream = stream

    def __call__(self, status: str) -> None:
        now = time.monotonic()
        if now >= self.next:
            self.next = now + self.every
            print(f"bddlc: {self.what}: {status} ({now - self.start:.0f} s)", file=self.stream or sys.stderr, flush=True)
