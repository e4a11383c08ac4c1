"""A sha256 per compiled formula, to show that a refactoring leaves every formula byte-identical.

Compiles every suite problem (problems/expected.toml) and every corpus BDDL
instance (../shared/corpus/sat2023, when present) with every encoding to QCIR
and QDIMACS through the real command line (`compiler.cli.main`, so headers
and error messages count too), and every positional game (problems/**/*.pg
and ../shared/corpus/pg) with every encoding a .pg game takes and with none
(the game's default), and writes one line per output:

    <instance> <encoding> <format> <exit status> <sha256 of stdout> <sha256 of stderr>

The exit status is `raised:<exception>` where the command raised (a
traceback on the command line) and `timeout` past --timeout seconds.

Run it before and after a change and `diff` the two files.  It is a tool for
refactorings, not a test: the differential tests say whether a formula is
right, this says whether it changed.

    python scripts/formula_fingerprint.py /tmp/before.txt
    python scripts/formula_fingerprint.py /tmp/after.txt --jobs 2
    diff /tmp/before.txt /tmp/after.txt
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import sys
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENCODINGS = ("lifted", "paper", "explicit", "corrective", "auto")
PG_ENCODINGS = ("default", "cor+", "corrective", "ea", "en", "et", "la", "ln", "sa", "sn")
FORMATS = ("qcir", "qdimacs")


def suite_instances() -> list[tuple[str, str, str]]:
    """(name, domain, problem) of every manifest entry, paths relative to ROOT."""
    manifest = tomllib.loads((ROOT / "problems" / "expected.toml").read_text(encoding="utf-8"))
    return [
        (f"suite/{entry['file']}", f"domains/{entry['domain']}", f"problems/{entry['file']}")
        for entry in manifest["problem"]
    ]


def corpus_instances(corpus: Path) -> list[tuple[str, str, str]]:
    """(name, domain, problem) of every problem file beside a `domain.ig`."""
    found = []
    for domain in sorted((corpus / "sat2023").glob("*/domain.ig")):
        for problem in sorted(domain.parent.glob("*.ig")):
            if problem != domain:
                found.append((f"corpus/{domain.parent.name}/{problem.stem}", str(domain), str(problem)))
    return found


def pg_instances(corpus: Path) -> list[tuple[str, str]]:
    """(name, game) of every suite and corpus positional game."""
    suite = [(f"suite/{path.relative_to(ROOT / 'problems')}", str(path.relative_to(ROOT))) for path in sorted((ROOT / "problems").rglob("*.pg"))]
    found = [(f"corpus/{path.relative_to(corpus)}", str(path)) for path in sorted((corpus / "pg").rglob("*.pg"))]
    return suite + found


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def fingerprint(job: tuple[str, tuple[str, ...], str, str, int]) -> str:
    """Compile one instance with one encoding to one format; the line for the output file."""
    import signal

    from compiler.cli import main

    name, files, encoding, fmt, timeout = job
    argv = ["compile", *files, "--format", fmt] + ([] if encoding == "default" else ["--encoding", encoding])
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status: object = main(argv)
    except _Timeout:
        status = "timeout"
    except SystemExit as exc:
        status = exc.code
    except Exception as exc:  # a traceback on the command line: the line says which
        status = f"raised:{type(exc).__name__}"
    finally:
        signal.alarm(0)
    digest = [hashlib.sha256(stream.getvalue().encode()).hexdigest() for stream in (out, err)]
    return f"{name} {encoding} {fmt} {status} {digest[0]} {digest[1]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="where to write the fingerprints")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus", help="the corpus folder")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--only", choices=("bddl", "pg"), help="only BDDL models or only positional games")
    parser.add_argument("--timeout", type=int, default=300, metavar="S", help="give up on one output after S seconds")
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    instances: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    if args.only != "pg":
        instances += [(name, (domain, problem), ENCODINGS) for name, domain, problem in suite_instances() + corpus_instances(args.corpus)]
    if args.only != "bddl":
        instances += [(name, (game,), PG_ENCODINGS) for name, game in pg_instances(args.corpus)]
    jobs = [(name, files, encoding, fmt, args.timeout) for name, files, encodings in instances for encoding in encodings for fmt in FORMATS]
    with ProcessPoolExecutor(args.jobs) as pool:
        lines = list(pool.map(fingerprint, jobs, chunksize=4))
    Path(args.output).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    corpus = sum(1 for instance in instances if instance[0].startswith("corpus/"))
    print(f"{len(lines)} outputs ({len(instances) - corpus} suite and {corpus} corpus instances)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
