"""A sha256 per compiled formula, to show that a refactoring leaves every formula byte-identical.

Compiles every suite problem (problems/expected.toml) and every corpus BDDL
instance (../shared/corpus/sat2023, when present) with every encoding to QCIR
and QDIMACS through the real command line (`compiler.cli.main`, so headers
and error messages count too) and writes one line per output:

    <instance> <encoding> <format> <exit status> <sha256 of stdout> <sha256 of stderr>

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


def fingerprint(job: tuple[str, str, str, str, str]) -> str:
    """Compile one instance with one encoding to one format; the line for the output file."""
    from compiler.cli import main

    name, domain, problem, encoding, fmt = job
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["compile", domain, problem, "--encoding", encoding, "--format", fmt])
    digest = [hashlib.sha256(stream.getvalue().encode()).hexdigest() for stream in (out, err)]
    return f"{name} {encoding} {fmt} {status} {digest[0]} {digest[1]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="where to write the fingerprints")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus", help="the corpus folder")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    instances = suite_instances() + corpus_instances(args.corpus)
    jobs = [(*instance, encoding, fmt) for instance in instances for encoding in ENCODINGS for fmt in FORMATS]
    with ProcessPoolExecutor(args.jobs) as pool:
        lines = list(pool.map(fingerprint, jobs, chunksize=4))
    Path(args.output).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    corpus = sum(1 for instance in instances if instance[0].startswith("corpus/"))
    print(f"{len(lines)} outputs ({len(instances) - corpus} suite and {corpus} corpus instances)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
