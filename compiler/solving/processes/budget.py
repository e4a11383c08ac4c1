"""An overall time budget for the commands that run many solves.

`--timeout` limits one solve; a user who starts `bddlc depth` or `bddlc
validate` also wants to say "no more than ten minutes in all".  The budget is
a deadline on the monotonic clock: every solve gets at most the time left
(and at most its own `--timeout`), and no solve starts once it is spent, so
the command stops cleanly with what it knows by then.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """`seconds` in all from `start` (monotonic); no limit when `seconds` is None."""

    seconds: float | None = None
    start: float = 0.0

    @classmethod
    def starting_now(cls, seconds: float | None) -> "Budget":
        return cls(seconds, time.monotonic())

    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return self.start + self.seconds - time.monotonic()

    def spent(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def timeout(self, per_solve: float | None) -> float | None:
        """The limit for the next solve: its own, cut to the time left."""
        left = self.remaining()
        if left is None:
            return per_solve
        left = max(left, 0.001)
        return left if per_solve is None else min(per_solve, left)

    def reason(self) -> str:
        return "no time budget" if self.seconds is None else f"the time budget of {self.seconds:g} s is spent"


NO_BUDGET = Budget()
"""No overall limit: the default of every function that takes a budget."""
