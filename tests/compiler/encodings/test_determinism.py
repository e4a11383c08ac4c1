"""Same input, byte-identical output, whatever the process.

Python randomises string hashing per process (PYTHONHASHSEED), so anything
that iterates a set or a dict keyed by strings in hash order would number
variables or gates differently from one run to the next.  Compiling twice in
one process cannot show that; these tests compile in separate processes with
different hash seeds and compare the files byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from compiler import applicable_encodings
from conftest import ROOT

# (domain, problem): chosen for what they exercise
MODELS = [
    ("breakthrough.bddl", "breakthrough/second_2x4_d6.bddl"),  # negated effects, White first
    ("knightthrough.bddl", "knightthrough/3x4_d1.bddl"),  # many actions, negated effects
    ("connect.bddl", "connect/connect2_2x2_d3.bddl"),  # NOT in a precondition, absolute goals
    ("domineering.bddl", "domineering/3x3_d4.bddl"),  # no goals, even depth
    ("evader_pursuer_dual.bddl", "evader_pursuer/dual_4x4_p1-2_d2.bddl"),  # White first
    ("positional.bddl", "httt/el_3x3_d5.bddl"),  # several goals
]
VARIANTS = [("qcir", []), ("qdimacs", []), ("qdimacs", ["--polarity"])]

# One process compiles every model, encoding and format through the real
# command line (compiler.cli.main) into the folder it is given.
SCRIPT = """
import sys
from compiler.cli import main
folder, jobs = sys.argv[1], sys.argv[2:]
for job in jobs:
    name, *argv = job.split("|")
    assert main(argv + ["-o", f"{folder}/{name}"]) == 0, job
"""


def encodings_of(domain: str, problem: str) -> list[str]:
    from bddl.loader import load_model

    model = load_model(ROOT / "domains" / domain, ROOT / "problems" / problem)
    return sorted(applicable_encodings(model.domain, model.problem))


def jobs() -> list[str]:
    found = []
    for domain, problem in MODELS:
        for encoding in encodings_of(domain, problem):
            for fmt, extra in VARIANTS:
                name = f"{problem.replace('/', '_')}.{encoding}{''.join(extra)}.{fmt}"
                argv = [str(ROOT / "domains" / domain), str(ROOT / "problems" / problem), "--encoding", encoding, *extra]
                found.append("|".join([name, *argv]))
    return found


def compile_all(folder: Path, hash_seed: str) -> dict[str, bytes]:
    folder.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", SCRIPT, str(folder), *jobs()], check=True, cwd=ROOT, env=env)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_separate_processes_with_different_hash_seeds_write_the_same_bytes(tmp_path):
    first = compile_all(tmp_path / "first", "1")
    second = compile_all(tmp_path / "second", "2024")
    assert len(first) == sum(len(encodings_of(*m)) for m in MODELS) * len(VARIANTS)
    assert first.keys() == second.keys()
    differ = [name for name in first if first[name] != second[name]]
    assert differ == []
    # the files are real formulas, not empty: each has a prefix and a matrix
    for name, data in first.items():
        text = data.decode("ascii")
        assert ("exists(" in text and "output(" in text) if name.endswith(".qcir") else "\np cnf " in text, name


def test_the_command_prints_the_same_bytes_under_different_hash_seeds():
    """The command itself (`python -m compiler.cli`, to stdout), in two processes."""
    domain, problem = ROOT / "domains" / "breakthrough.bddl", ROOT / "problems" / "breakthrough" / "second_2x4_d6.bddl"
    outputs = []
    for seed in ("3", "77"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-m", "compiler.cli", str(domain), str(problem)],
            capture_output=True,
            check=True,
            cwd=ROOT,
            env=env,
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] and len(outputs[0]) > 1000
