"""`python -m bench.whole_commands`: issue 41's whole-command targets for `.pg` games, measured as a
user meets them (docs/benchmarks.md, "The compiled core").

* the 180 GTTT games of the corpus, each opened and answered by `bddlc solve`'s default route (the
  race of the QBF route and the search, `compiler.solving.routes.answer`), in one process: the
  process start is left out, as the target says, and so is the first game's (the imports);
* Hein 20 at depth 15 by `bddlc solve` itself, a child process, its wall time.

Every verdict is checked against the corpus's answers.tsv; a wrong one is an error, not a figure.

    python -m bench.whole_commands
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from typing import Sequence

from compiler.model import open_model
from compiler.solving.routes import answer

from .core import CORPUS


def _answers() -> dict[str, bool]:
    found = {}
    for line in (CORPUS / "answers.tsv").read_text().splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[1] in ("true", "false"):
            found[parts[0]] = parts[1] == "true"
    return found


def gttt(engine: str) -> tuple[int, float, float, dict[str, int]]:
    """(games, seconds opening, seconds answering, who answered) over the 180 GTTT games."""
    known = _answers()
    files = sorted(CORPUS.glob("gttt-*/*.pg"))
    answer(open_model([str(files[0])]), engine=engine)  # the imports, once
    opening = answering = 0.0
    who: dict[str, int] = {}
    for path in files:
        start = time.perf_counter()
        model = open_model([str(path)])
        opened = time.perf_counter()
        result = answer(model, engine=engine).result
        answering += time.perf_counter() - opened
        opening += opened - start
        expected = known.get(str(path.relative_to(CORPUS)))
        if expected is not None and result.black_wins is not None and result.black_wins != expected:
            raise SystemExit(f"{path}: {result.black_wins}, the corpus says {expected}")
        route = (result.answered_by or "none").split(":")[0]
        who[route] = who.get(route, 0) + 1
    return len(files), opening, answering, who


def hein_20_at_15() -> tuple[float, str]:
    """Wall seconds of `bddlc solve hein_20_6x6-13.pg --depth 15`, and its verdict line."""
    game = CORPUS / "hein" / "hein_20_6x6-13.pg"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "compiler.cli", "solve", str(game), "--depth", "15"],
                          capture_output=True, text=True)
    if done.returncode not in (10, 20):  # solve's exit statuses for a verdict (docs/cli.md)
        raise SystemExit(f"bddlc solve gave no verdict (exit status {done.returncode}): {done.stderr[-500:]}")
    return time.perf_counter() - start, done.stdout.splitlines()[0]


def main(argv: Sequence[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m bench.whole_commands", description=__doc__.splitlines()[0]).parse_args(argv)
    print(f"load average: {os.getloadavg()[0]:.1f}")
    for engine in ("auto", "search"):
        games, opening, answering, who = gttt(engine)
        print(f"GTTT, {games} games, --engine {engine}: {opening + answering:.2f} s (opening {opening:.2f} s, "
              f"answering {answering:.2f} s); answered by {who}")
    seconds, verdict = hein_20_at_15()
    print(f"Hein 20 at 15, bddlc solve: {seconds:.2f} s wall ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
