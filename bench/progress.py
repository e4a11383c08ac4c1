"""A one-line progress bar on stderr (no dependency: a benchmark should not need one).

On a terminal the line is redrawn in place; anywhere else (CI logs, pipes)
each step is one plain line, so the log reads as a record of the run."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, width: int = 24) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self.interactive = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self, label: str) -> str:
        filled = self.width * self.done // self.total
        bar = "=" * filled + (">" if filled < self.width else "") + " " * max(0, self.width - filled - 1)
        elapsed = time.perf_counter() - self.start
        return f"[{bar}] {self.done}/{self.total} {elapsed:6.1f}s  {label}"

    def step(self, label: str) -> None:
        """Count one step as done and show `label` (what just finished)."""
        self.done = min(self.done + 1, self.total)
        text = self.line(label)
        if self.interactive:
            self.stream.write("\r\x1b[2K" + text[:160])
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        """A line that must stay visible (a wrong verdict, a warning), printed above the bar."""
        if self.interactive:
            self.stream.write("\r\x1b[2K")
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.interactive:
            self.stream.write("\n")
            self.stream.flush()
