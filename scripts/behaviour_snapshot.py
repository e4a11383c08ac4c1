"""A snapshot of bddlc's observable behaviour, to show that a refactoring changes none of it.

Run from a checkout's root (its own code first on the path), before and after
a change, and compare the two folders:

    PYTHONPATH=$PWD python scripts/behaviour_snapshot.py /tmp/before --jobs 2
    ...the change...
    PYTHONPATH=$PWD python scripts/behaviour_snapshot.py /tmp/after --jobs 2
    diff -r /tmp/before /tmp/after

Every file it writes is deterministic (two runs on one commit give the same
bytes; times, temporary paths and the like are left out or normalised):

- `environment.txt`: where `compiler` and the compiled core are imported from
  (relative to the checkout: a snapshot that ran another checkout's code, or
  without the core, says so here) and the first line of `bddlc --version`.
- `fingerprints.txt`: `scripts/formula_fingerprint.py` (every formula of the
  suite and the corpus, every encoding and format, through the CLI: sha256 of
  stdout and stderr, and the exit status).
- `engines.txt`: `bench.engines.measure`, the rows of `python -m bench.engines`
  with a positions budget of ENGINES_MAX_POSITIONS (and a time limit no row
  reaches, so that no verdict depends on the machine's speed): per instance and
  search (minimax, df-pn, df-pn with race patterns or the positional rules,
  the positional solver's minimax), the verdict and the positions; no times.
- `certificates.txt`: sha256 (and bytes) of strategy certificates: those of
  docs/results.md that are cheap enough to write again (each compared with the
  checksum docs/results.md gives, where it gives one; the dear ones listed as
  skipped, with the reason), the animal games' certificates docs/results.md
  names by command (`python -m bench.certificates`, with its TSV line less the
  times), the Hex puzzles' (`bench.certificates --answers answers.tsv` in the
  corpus's pg folder), the 18 games of problems/positional.toml and a fixed
  sample of 20 BDDL problems of problems/expected.toml (`bddlc search GAME
  --certificate F`).
- `json.txt`: for every entry of problems/expected.toml and
  problems/positional.toml not marked slow, `bddlc check --json`, `bddlc
  compile --json -o F` (with F's sha256), `bddlc search --json`, `bddlc solve
  --json --engine search` and `bddlc solve --json --engine qbf --timeout 20`:
  the exit status, the JSON with `seconds` and temporary paths normalised, and
  standard error (times normalised).  Entries whose command takes too long for
  a timeout-free answer are listed as skipped.

Progress goes to standard error; `--timings FILE` writes each task's seconds
(not deterministic, so kept out of OUT_DIR).  `--parts` runs some parts only.
Every command runs with the checkout as its working folder (the certificates of
corpus games: the corpus's pg folder) and PYTHONPATH starting with the
checkout, so its own code answers; the corpus is read from ../shared/corpus.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
PY = sys.executable
PARTS = ("environment", "fingerprints", "engines", "certificates", "json")

ENGINES_MAX_POSITIONS = 100_000
ENGINES_TIME_LIMIT = 3600.0  # far past what ENGINES_MAX_POSITIONS positions take: the budget decides, never the clock
SOLVE_TIMEOUT = 20  # `solve --timeout`
KILL_AFTER = 300  # a command still running after this many seconds is killed (recorded as "killed")

# --- json.txt: commands whose answer would depend on the machine's speed -----------------------
# Measured on the 2-core machine under load (2026-11-27, load average 4 to 5): `solve --engine qbf
# --timeout 20` of these ran into the time limit or took more than half of it, so whether it answers
# or says "unknown" depends on the load.  Every other command of json.txt took 8 s or less.
_QBF_SLOW = {
    "httt/skinny_4x4_d13.bddl": "the time limit (21.5 s)",
    "connect/connect4_5x4_d19.bddl": "the time limit (20.7 s)",
    "breakthrough/second_3x5_d18.bddl": "the time limit (22.3 s)",
    "knightthrough/second_3x6_d14.bddl": "the time limit (21.0 s)",
    "knightthrough/second_3x6_d16.bddl": "the time limit (21.0 s)",
    "evader_pursuer/dual_8x8_p3-4_d10.bddl": "the time limit (20.7 s)",
    "httt/fatty_4x4_d15.bddl": "12.2 s",
    "domineering/5x5_d13.bddl": "10.7 s",
}
JSON_SKIP: dict[tuple[str, str], str] = {
    (f"expected.toml:{name}", "solve-qbf"): f"--timeout {SOLVE_TIMEOUT} is too close: the QBF route took {took} under load"
    for name, took in _QBF_SLOW.items()
}

# --- certificates.txt ----------------------------------------------------------------------------
# docs/results.md's certificates with a SHA-256: (file stem, animal, size, moves or None, sha256, seconds the docs give)
RESULTS_SHA = [
    ("i4_6_strong_7", "I-tetromino", 6, 7, "fd288bad585423e4a6a4bfddd8c36bf8a804433be02334ad069eef9646bac34b", "125 s for the command"),
    ("l5_6_strong_7", "L-pentomino", 6, 7, "be777494c855647cba2f6b81bad4c610c6b2b73d4731fecd337d602fee8afd4e", None),
    ("i4_7_strong_6", "I-tetromino", 7, 6, "dc8e53310a4923c29cbca5a8803b0610d6e1b5f3ca4cefcc3f8d1899642d53c9", "237 s for the command"),
    ("I_7moves7", "I-tetromino", 7, 7, "b0df7cf61f36fb39f6f40a7c4a61c98a63d95270524a795b6100b0ca505ed509", "88 s for the command, 53.6 MB"),
    ("i4_6_strong_8", "I-tetromino", 6, 8, "de3e86be0be57a8402ab895b7318b368d343dc27e5900da39588224cab67883c", "1,918 s for the command, 1.7 GB"),
    ("l5_6_strong_8", "L-pentomino", 6, 8, "38461238b0353d372e654370e95f42fbfe9b8427d7693473e0a15968d0a478a8", "417 s for the command"),
]
RESULTS_SHA_PNS = [  # written by `bddlc search GAME.pg --algorithm pns --max-memory 8000 --certificate GAME.json`
    ("l5_7_strong_7", "L-pentomino", 7, 7, "4b3bf003ee791a0694b389fb88de8c9e65c5debe40d07de1c7acec8616c2f7c0", "3,388 s"),
    ("l6_m10", "L-pentomino", 6, 10, "80db596d2306fbe5d9814a7667be4811d1666831ab64a19df107fa4160e8c55c", "503 s"),
    ("i6_m12", "I-tetromino", 6, 12, "ba9a462a18695ce9583dfc134850e0021a2d2ed4f486bf72c7677ed579437c09", "1,289 s"),
    ("i6_full", "I-tetromino", 6, None, "ef8e88ff0b12a7ddc0b19c7e2d87c3d979ea9eedd25bd81c6795963a34c81ef0", "607 s"),
    ("l6_full", "L-pentomino", 6, None, "300a1c2cb7e5d3f14d1b5d6fb0b81cf04dbb2b8b5295e06b848d85b15ee921d1", "4,202 s"),
    ("l6_m11", "L-pentomino", 6, 11, "71a7b65aa909c3bb766bd6b0acc23a84f965e3c94d66d99427a3156cbbf67c07", "741 s"),
]
HEIN_SHA = ("hein/hein_20_6x6-15.pg", "2aaa146582eba38ec1d4cef5132c021b8cf89a09905dd38ec384570b721f8e88",
            "225 s to decide and 71 s to write, 1.2 GB")
# docs/results.md's strategies of the plain minimax (tests/pg/plain_minimax.py --hint --line --strategy):
# (strategy name, animal, size, weak, moves, sha256, why skipped or None)
STRATEGIES = [
    ("N-pentomino_5x5_weak_m6", "N-pentomino", 5, True, 6, "1c26d084c0626aa430fec781c020ef380cb4586bd47a1cc21fc37d40b9dfa6a0", None),
    ("N-pentomino_5x5_strong_m6", "N-pentomino", 5, False, 6, "ffe5f2a2726da0ee7f231c6de13e9f00e926fcd8bc7db2b24d0c383c4d6c29c4", None),
    ("I-tetromino_6x6_weak_m6", "I-tetromino", 6, True, 6, "40d675895f7962e580571ed01a458515554ac68e015ac1fee26830aa1449907b", None),
    ("L-pentomino_6x6_weak_m7", "L-pentomino", 6, True, 7, "7e60682b9d491eb0a6e37d5d9301eb0641d4aff363beea58d5f026a87d2673c2",
     "110 s, 18 MB (measured 2026-11-27 under load; its sha256 matched)"),
    ("Y-pentomino_6x6_weak_m6", "Y-pentomino", 6, True, 6, "000970ba39a7959d5a591ea4fa1a2a5027c0b675f7b0fdc4ee010eb5d38a9e40", None),
    ("Y-pentomino_6x6_strong_m6", "Y-pentomino", 6, False, 6, "3c2967e1ff659b6bc5dfdf86e6cb951bcf2a32091b44adbcf69037fdd7d02df7",
     "178 s, 18 MB (measured 2026-11-27 under load; its sha256 matched)"),
    ("I-tetromino_7x7_strong_m7", "I-tetromino", 7, False, 7, "185b8eaa947aeb90b7ddd6d7667629eeef250cbd60c8478b29e65be17cb77722",
     "274 s, 27 MB (measured 2026-11-27 under load; its sha256 matched)"),
]
# The animal games docs/results.md certifies with `python -m bench.certificates --out certificates
# --max-memory 8000 GAME.pg`: (animal, size, weak, moves or None for the whole board).  The table of
# b / m: the win on b in m (weak and race), no win in m - 1 on b and none on b - 1 with the whole board
# (weak); then the other verdicts' table.
_BM = [("domino", 2, 2, True), ("I-tromino", 4, 3, True), ("V-tromino", 3, 3, True), ("L-tetromino", 4, 4, True),
       ("T-tetromino", 5, 4, True), ("Z-tetromino", 3, 5, True), ("N-pentomino", 5, 6, True),
       ("I-tetromino", 6, 6, False), ("L-pentomino", 6, 7, False), ("Y-pentomino", 6, 6, True)]
ANIMAL_GAMES: list[tuple[str, int, bool, int | None]] = []
for _animal, _b, _m, _race in _BM:
    ANIMAL_GAMES.append((_animal, _b, True, _m))
    if _race:
        ANIMAL_GAMES.append((_animal, _b, False, _m))
    ANIMAL_GAMES.append((_animal, _b, True, _m - 1))
    ANIMAL_GAMES.append((_animal, _b - 1, True, None))
ANIMAL_GAMES += [
    ("I-tetromino", 7, True, 6), ("I-tetromino", 7, True, 5),
    ("N-pentomino", 6, True, 6), ("N-pentomino", 6, True, 5), ("N-pentomino", 6, False, 6),
    ("L-pentomino", 4, True, None), ("L-pentomino", 7, True, 7), ("L-pentomino", 7, True, 6),
    ("Y-pentomino", 4, True, None), ("Y-pentomino", 7, True, 6), ("Y-pentomino", 7, True, 5),
    ("I-tetromino", 6, False, 6),
]
ANIMAL_GAMES = list(dict.fromkeys(ANIMAL_GAMES))
# Of those, the ones too dear to write again here: (animal, size, weak, moves) -> reason
ANIMAL_SKIP: dict[tuple[str, int, bool, int | None], str] = {}
# The losers: every board from 3x3 to 7x7 where the animal fits, weak and strong, the whole board
# (docs/results.md: "All 96 were written and checked in 0.9 s in all").
LOSERS = ["O-tetromino", "F-pentomino", "I-pentomino", "P-pentomino", "T-pentomino", "U-pentomino",
          "V-pentomino", "W-pentomino", "X-pentomino", "Z-pentomino"]
# The Hex puzzles (docs/results.md, "Their certificates"), each with `bench.certificates --answers
# answers.tsv --max-memory 8000`, from the corpus's pg folder; the dear ones skipped: name -> reason
HEIN_SKIP = {
    "hein/hein_20_6x6-15.pg": "225 s to decide and 71 s to write (docs/results.md)",
    "hein/hein_03_6x6-15.pg": "49 s to decide and 57 s to write (docs/results.md)",
    "hein/hein_17_6x6-15.pg": "50 s to decide and 24 s to write (docs/results.md)",
    "hein/hein_18_7x7-15.pg": "81 s (measured 2026-11-27 under load: 355,302 positions to decide it)",
    "hein/hein_20_6x6-13.pg": "76 s (measured 2026-11-27 under load)",
}
# A fixed sample of 20 BDDL problems of problems/expected.toml, over every family, for
# `bddlc search DOMAIN PROBLEM --certificate F`
BDDL_SAMPLE = [
    "httt/domino_3x3_d3.bddl", "httt/el_3x3_d5.bddl", "httt/tic_3x3_d9.bddl", "httt/tic_4x4_d5.bddl",
    "httt/tippy_3x3_d9.bddl", "httt/elly_4x4_d7.bddl",
    "connect/connect2_3x3_d3.bddl", "connect/connect3_3x3_d9.bddl", "connect/connect3_4x4_d9.bddl",
    "breakthrough/2x4_d13.bddl", "breakthrough/second_4x4_d14.bddl", "breakthrough/2x5_d17.bddl",
    "knightthrough/second_3x6_d16.bddl",
    "evader_pursuer/4x4_p1-2_d21.bddl", "evader_pursuer/dual_8x8_p2-3_d6.bddl",
    "domineering/2x2_d2.bddl", "domineering/3x3_d4.bddl", "domineering/4x4_d8.bddl",
    "hex/hex3_d5.bddl", "hex/hex4_b_d7.bddl",
]


# --- running commands ----------------------------------------------------------------------------

def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("BDDLC_SLOW", None)
    return env


@dataclass
class Ran:
    status: str  # the exit status, "killed" past KILL_AFTER
    stdout: str
    stderr: str


def run(argv: list[str], cwd: Path = ROOT, kill_after: float = KILL_AFTER) -> Ran:
    try:
        done = subprocess.run(argv, cwd=cwd, env=_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=kill_after)
    except subprocess.TimeoutExpired as exc:
        return Ran("killed", _text(exc.stdout), _text(exc.stderr))
    return Ran(str(done.returncode), done.stdout, done.stderr)


def _text(data) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


def bddlc(*args: str, cwd: Path = ROOT, kill_after: float = KILL_AFTER) -> Ran:
    return run([PY, "-m", "compiler.cli", *args], cwd=cwd, kill_after=kill_after)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "-"


_TIMES = [
    (re.compile(r"\b\d+(\.\d+)?( ?)(s|ms|seconds)\b"), r"<t>\2\3"),  # 0.23 s, 12 s, 4ms
    (re.compile(r"\b\d+(\.\d+)? ?(MB|GB|KB) (peak|of memory)"), r"<m> \2 \3"),
]


# Progress lines, printed every few seconds of a long run: how many there are depends on the clock.
_PROGRESS = re.compile(r"^bddlc: [\w -]+: [\d,]+ (of [\d,]+ )?(positions|nodes) expanded.*$\n?", re.MULTILINE)


def normalise_text(text: str, temp: str) -> str:
    text = _PROGRESS.sub("", text.replace(temp, "<TMP>"))
    for pattern, replacement in _TIMES:
        text = pattern.sub(replacement, text)
    return text


def normalise_json(value, temp: str):
    if isinstance(value, dict):
        return {key: ("<t>" if key == "seconds" and isinstance(item, (int, float)) else normalise_json(item, temp))
                for key, item in value.items()}
    if isinstance(value, list):
        return [normalise_json(item, temp) for item in value]
    if isinstance(value, str):
        return value.replace(temp, "<TMP>")
    return value


def one_line(text: str) -> str:
    """Text on one line of the output file (newlines as ⏎)."""
    return text.rstrip("\n").replace("\\", "\\\\").replace("\n", "⏎")


# --- the tasks -----------------------------------------------------------------------------------

@dataclass(order=True)
class Task:
    cost: float  # an estimate of its seconds, to start the dear ones first
    part: str = field(compare=False)
    key: str = field(compare=False)  # its lines' place in the part's file
    function: str = field(compare=False)
    args: tuple = field(compare=False, default=())


def execute(task: Task) -> tuple[str, str, list[str], float]:
    start = time.perf_counter()
    try:
        lines = globals()[task.function](*task.args)
    except Exception as exc:  # noqa: BLE001 - the snapshot records it rather than dying
        lines = [f"{task.key} ERROR {type(exc).__name__}: {one_line(str(exc))}"]
    return task.part, task.key, lines, time.perf_counter() - start


# --- b. engines ----------------------------------------------------------------------------------

def engine_instances() -> list[tuple[str, str]]:
    """(family, name) of every row of `python -m bench.engines`, in its order."""
    from bench.engines import instances

    return [(family, name) for family, name, *_ in instances(CORPUS)]


def _run_text(run) -> str:
    if run is None:
        return "-"
    verdict = {True: "wins", False: "no-win", None: "none"}[run.verdict]
    note = f" ({run.note})" if run.note else ""
    return f"{verdict} {run.positions if run.positions is not None else '-'}{note}"


def engines_row(name: str) -> list[str]:
    from bench.engines import measure

    rows = [row for row in measure(CORPUS, ENGINES_MAX_POSITIONS, ENGINES_TIME_LIMIT, only=name, log=io.StringIO())
            if row.name == name]
    lines = []
    for row in rows:
        expected = {True: "wins", False: "no-win", None: "?"}[row.expected]
        head = f"{row.family} {row.name} expected={expected}"
        lines.append(f"{head} minimax {_run_text(row.minimax)}")
        lines.append(f"{head} pns {_run_text(row.pns)}")
        if row.knowledge is not None or row.kind:
            lines.append(f"{head} pns+{row.kind or '?'} {_run_text(row.knowledge)}")
        if row.rules_minimax is not None:
            lines.append(f"{head} rules-minimax {_run_text(row.rules_minimax)}")
    return lines or [f"{name} NO ROW"]


# --- c. certificates -----------------------------------------------------------------------------

def _animal_file(animal: str, size: int, weak: bool, moves: int | None) -> str:
    return f"{animal}_{size}x{size}_{'weak' if weak else 'strong'}_{'full' if moves is None else f'm{moves}'}.pg"


def _write_animal(folder: Path, animal: str, size: int, weak: bool, moves: int | None, name: str | None = None) -> tuple[str, Ran]:
    name = name or _animal_file(animal, size, weak, moves)
    argv = [PY, "-m", "bddl.pg.animals", "--animal", animal, "--size", str(size), "-o", name]
    argv += (["--weak"] if weak else []) + ([] if moves is None else ["--moves", str(moves)])
    return name, run(argv, cwd=folder)


def results_sha(stem: str, animal: str, size: int, moves: int | None, documented: str, pns: bool) -> list[str]:
    """docs/results.md: `python -m bddl.pg.animals ... -o STEM.pg`, then `bddlc search STEM.pg
    [--algorithm pns] --certificate STEM.json --max-memory 8000` in the game file's folder."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        game, made = _write_animal(folder, animal, size, False, moves, f"{stem}.pg")
        if made.status != "0":
            return [f"results.md {stem} game-not-written status={made.status} {one_line(made.stderr)}"]
        target = folder / f"{stem}.json"
        ran = bddlc("search", game, *(["--algorithm", "pns"] if pns else []), "--max-memory", "8000", "--certificate", target.name,
                    cwd=folder)
        digest = sha256(target)
        size_text = target.stat().st_size if target.exists() else "-"
        verdict = ran.stdout.strip().splitlines()[0] if ran.stdout.strip() else ""
        return [f"results.md {stem} status={ran.status} sha256={digest} bytes={size_text} "
                f"documented={'match' if digest == documented else 'DIFFERS'} | {verdict}"]


def strategy(name: str, animal: str, size: int, weak: bool, moves: int, documented: str) -> list[str]:
    """docs/results.md: `python tests/pg/plain_minimax.py GAME.pg --hint --line --strategy GAME.strategy`."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        game, made = _write_animal(folder, animal, size, weak, moves)
        if made.status != "0":
            return [f"strategy {name} game-not-written status={made.status} {one_line(made.stderr)}"]
        ran = run([PY, str(ROOT / "tests" / "pg" / "plain_minimax.py"), game, "--hint", "--line", "--strategy", f"{name}.strategy"],
                  cwd=folder)
        target = folder / f"{name}.strategy"
        digest = sha256(target)
        return [f"strategy {name} status={ran.status} sha256={digest} bytes={target.stat().st_size if target.exists() else '-'} "
                f"documented={'match' if digest == documented else 'DIFFERS'} stdout-sha256={hashlib.sha256(normalise_text(ran.stdout, temp).encode()).hexdigest()}"]


def _bench_certificates(label: str, games: list[str], cwd: Path, out: Path, extra: list[str]) -> list[str]:
    """`python -m bench.certificates --out OUT [extra] GAME...`: its TSV less the times and memory, and each file's sha256."""
    ran = run([PY, "-m", "bench.certificates", "--out", str(out), *extra, *games], cwd=cwd)
    lines = []
    header, *rows = ran.stdout.splitlines() or [""]
    columns = header.split("\t")
    keep = [i for i, column in enumerate(columns) if not column.endswith("_s") and column != "peak_mb"]
    for row in rows:
        cells = row.split("\t")
        game = cells[0]
        target = out / (Path(game.split(",")[-1]).stem + ".json")
        kept = " ".join(f"{columns[i]}={cells[i]}" for i in keep[1:] if i < len(cells))
        lines.append(f"{label} {game} {kept} sha256={sha256(target)}")
    lines.append(f"{label} [{' '.join(games)}] status={ran.status} stderr: {one_line(normalise_text(ran.stderr, str(out)))}")
    return lines


def animal_certificates(label: str, games: list[tuple[str, int, bool, int | None]], extra: tuple[str, ...] = ()) -> list[str]:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        names = []
        for game in games:
            name, made = _write_animal(folder, *game)
            if made.status == "0":
                names.append(name)
        return _bench_certificates(label, names, folder, folder / "certificates", list(extra))


def losers(animal: str) -> list[str]:
    games = [(animal, size, weak, None) for size in range(3, 8) for weak in (True, False)]
    lines = animal_certificates(f"losers/{animal}", games)
    return lines


def hein(games: list[str]) -> list[str]:
    folder = CORPUS / "pg"
    with tempfile.TemporaryDirectory() as temp:
        return _bench_certificates("hein", games, folder, Path(temp), ["--max-memory", "8000", "--answers", "answers.tsv"])


def search_certificate(label: str, files: tuple[str, ...]) -> list[str]:
    with tempfile.TemporaryDirectory() as temp:
        target = Path(temp) / "certificate.json"
        ran = bddlc("search", *files, "--certificate", str(target), "--json")
        try:
            summary = json.loads(ran.stdout)["certificate"]
            summary = {key: value for key, value in summary.items() if key != "path"} if summary else summary
        except (ValueError, KeyError, TypeError):
            summary = one_line(ran.stdout)
        return [f"{label} status={ran.status} sha256={sha256(target)} {json.dumps(summary)}"]


# --- d. JSON of every command on every manifest entry ---------------------------------------------

@dataclass(frozen=True)
class Entry:
    manifest: str
    name: str
    files: tuple[str, ...]  # relative to ROOT
    depth: int | None
    slow: bool


def manifest_entries(manifest: Path) -> list[Entry]:
    """A `bddlc regress` manifest's entries (compiler/solving/regress.py: `domains` and `problems`
    relative to the manifest's folder, default that folder)."""
    data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    base = manifest.parent
    domains = (base / str(data.get("domains", "."))).resolve()
    problems = (base / str(data.get("problems", "."))).resolve()
    found = []
    for raw in data["problem"]:
        problem = os.path.relpath(problems / raw["file"], ROOT)
        files = (problem,) if "domain" not in raw else (os.path.relpath(domains / raw["domain"], ROOT), problem)
        found.append(Entry(manifest.name, raw["file"], files, raw.get("depth"), bool(raw.get("slow", False))))
    return found


COMMANDS = {
    "check": ("check", "--json"),
    "compile": ("compile", "--json", "-o", "{out}"),
    "search": ("search", "--json"),
    "solve-search": ("solve", "--json", "--engine", "search", "--timeout", str(SOLVE_TIMEOUT)),
    "solve-qbf": ("solve", "--json", "--engine", "qbf", "--timeout", str(SOLVE_TIMEOUT)),
}


def json_command(entry: Entry, command: str) -> list[str]:
    with tempfile.TemporaryDirectory() as temp:
        out = Path(temp) / "formula"
        words = COMMANDS[command]
        argv = [words[0], *entry.files, *[word.format(out=out) for word in words[1:]]]
        if entry.depth is not None:
            argv += ["--depth", str(entry.depth)]
        ran = bddlc(*argv)
        try:
            text = json.dumps(normalise_json(json.loads(ran.stdout), temp), ensure_ascii=False)
        except ValueError:
            text = "not JSON: " + one_line(normalise_text(ran.stdout, temp))
        extra = f" formula-sha256={sha256(out)}" if command == "compile" else ""
        stderr = one_line(normalise_text(ran.stderr, temp))
        return [f"{entry.manifest}:{entry.name} {command} status={ran.status}{extra} {text}"
                + (f" stderr: {stderr}" if stderr else "")]


# --- a. fingerprints, and the environment ---------------------------------------------------------

def environment() -> list[str]:
    import compiler
    from bddl.engines import compiled

    def where(path) -> str:
        path = Path(path).resolve()
        return f"the checkout: {path.relative_to(ROOT)}" if path.is_relative_to(ROOT) else f"ELSEWHERE: {path}"

    core = getattr(compiled, "_core", None)
    version = bddlc("--version")
    return [
        f"compiler imported from {where(compiler.__file__)}",
        f"compiled core: {'loaded from ' + where(core.__file__) if core is not None else 'NOT BUILT'}",
        f"bddlc --version: status={version.status} {one_line(version.stdout)}",
        f"corpus: {'present' if CORPUS.is_dir() else 'ABSENT'} (../shared/corpus)",
    ]


def fingerprints(out: Path, jobs: int) -> None:
    ran = run([PY, str(ROOT / "scripts" / "formula_fingerprint.py"), str(out), "--jobs", str(jobs)], kill_after=24 * 3600)
    print(f"fingerprints: status {ran.status}: {ran.stdout.strip()} {ran.stderr.strip()}", file=sys.stderr, flush=True)
    if ran.status != "0":
        out.write_text(f"formula_fingerprint.py failed: status={ran.status}\n{ran.stdout}{ran.stderr}", encoding="utf-8")


# --- putting it together ---------------------------------------------------------------------------

def tasks(parts: set[str]) -> tuple[list[Task], dict[str, list[str]]]:
    """The tasks of the parts asked, and the lines each part's file starts with (what was skipped, and why)."""
    found: list[Task] = []
    head: dict[str, list[str]] = {part: [] for part in parts}
    if "engines" in parts:
        head["engines"].append(f"# bench.engines.measure(corpus, max_positions={ENGINES_MAX_POSITIONS}, "
                               f"seconds={ENGINES_TIME_LIMIT:g}): per instance and search, the verdict and positions")
        for index, (_family, name) in enumerate(engine_instances()):
            found.append(Task(5.0, "engines", f"{index:04d}", "engines_row", (name,)))
    if "certificates" in parts:
        lines = head["certificates"]
        for stem, animal, size, moves, documented, reason in RESULTS_SHA:
            if reason:
                lines.append(f"skipped results.md {stem} ({animal} {size}x{size} race, {moves} moves; sha256 {documented}): {reason}")
            else:
                found.append(Task(60.0, "certificates", f"1 {stem}", "results_sha", (stem, animal, size, moves, documented, False)))
        for stem, animal, size, moves, documented, reason in RESULTS_SHA_PNS:
            lines.append(f"skipped results.md {stem} ({animal} {size}x{size} race, {moves or 'all'} moves, df-pn; sha256 {documented}): {reason}")
        lines.append(f"skipped results.md {HEIN_SHA[0]} (sha256 {HEIN_SHA[1]}): {HEIN_SHA[2]}")
        for name, animal, size, weak, moves, documented, reason in STRATEGIES:
            if reason:
                lines.append(f"skipped strategy {name} (sha256 {documented}): {reason}")
            else:
                found.append(Task(30.0, "certificates", f"2 {name}", "strategy", (name, animal, size, weak, moves, documented)))
        for game, reason in ANIMAL_SKIP.items():
            lines.append(f"skipped animals {_animal_file(*game)}: {reason}")
        for index, game in enumerate(g for g in ANIMAL_GAMES if g not in ANIMAL_SKIP):
            found.append(Task(10.0, "certificates", f"3 {index:03d}", "animal_certificates", (f"animals/{index:03d}", [game], ("--max-memory", "8000"))))
        for animal in LOSERS:
            found.append(Task(3.0, "certificates", f"4 {animal}", "losers", (animal,)))
        for game, reason in HEIN_SKIP.items():
            lines.append(f"skipped hein {game}: {reason}")
        if (CORPUS / "pg" / "hein").is_dir():
            games = [f"hein/{path.name}" for path in sorted((CORPUS / "pg" / "hein").glob("*.pg")) if f"hein/{path.name}" not in HEIN_SKIP]
            for index, game in enumerate(games):
                found.append(Task(10.0, "certificates", f"5 {index:03d}", "hein", ([game],)))
        else:
            lines.append("skipped hein: no corpus")
        for entry in manifest_entries(ROOT / "problems" / "positional.toml"):
            found.append(Task(3.0, "certificates", f"6 {entry.name}", "search_certificate", (f"suite-pg {entry.name}", entry.files)))
        bddl = {entry.name: entry for entry in manifest_entries(ROOT / "problems" / "expected.toml")}
        for name in BDDL_SAMPLE:
            if name in bddl:
                found.append(Task(5.0, "certificates", f"7 {name}", "search_certificate", (f"suite-bddl {name}", bddl[name].files)))
            else:
                lines.append(f"suite-bddl {name}: NOT IN problems/expected.toml")
    if "json" in parts:
        lines = head["json"]
        lines.append(f"# per manifest entry not marked slow: {', '.join(COMMANDS)} (solve: --timeout {SOLVE_TIMEOUT})")
        for manifest in ("expected.toml", "positional.toml"):
            for index, entry in enumerate(manifest_entries(ROOT / "problems" / manifest)):
                if entry.slow:
                    lines.append(f"skipped {manifest}:{entry.name}: marked slow")
                    continue
                for number, command in enumerate(COMMANDS):
                    reason = JSON_SKIP.get((f"{manifest}:{entry.name}", command))
                    if reason:
                        lines.append(f"skipped {manifest}:{entry.name} {command}: {reason}")
                        continue
                    cost = 8.0 if command == "solve-qbf" else 1.0
                    found.append(Task(cost, "json", f"{manifest} {index:04d} {number}", "json_command", (entry, command)))
    return found, head


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, metavar="OUT_DIR", help="the folder to write the snapshot into")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated parts to run (default all: {','.join(PARTS)})")
    parser.add_argument("--timings", type=Path, help="write each task's seconds here (TSV; not deterministic)")
    args = parser.parse_args()
    parts = {part.strip() for part in args.parts.split(",") if part.strip()}
    unknown = parts - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))} (the parts: {', '.join(PARTS)})")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    args.out.mkdir(parents=True, exist_ok=True)
    timings: list[str] = []
    start = time.perf_counter()

    if "environment" in parts:
        lines = environment()
        (args.out / "environment.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        for line in lines:
            print(f"environment: {line}", file=sys.stderr, flush=True)
        if any("ELSEWHERE" in line or "NOT BUILT" in line for line in lines):
            print("behaviour_snapshot: WARNING: not the checkout's own code, or no compiled core "
                  "(build it in the checkout: python setup.py -q build_ext --inplace)", file=sys.stderr, flush=True)
    if "fingerprints" in parts:
        began = time.perf_counter()
        print(f"fingerprints: scripts/formula_fingerprint.py --jobs {args.jobs} ...", file=sys.stderr, flush=True)
        fingerprints(args.out.resolve() / "fingerprints.txt", args.jobs)
        timings.append(f"fingerprints\t-\t{time.perf_counter() - began:.1f}")

    rest = parts & {"engines", "certificates", "json"}
    if rest:
        todo, head = tasks(rest)
        todo.sort(reverse=True)
        results: dict[str, list[tuple[str, list[str]]]] = {part: [] for part in rest}
        per_part = {part: 0.0 for part in rest}
        counts = {part: sum(1 for task in todo if task.part == part) for part in rest}
        done = {part: 0 for part in rest}
        print(f"tasks: {', '.join(f'{part} {counts[part]}' for part in sorted(rest))}; {args.jobs} workers", file=sys.stderr, flush=True)
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(execute, task) for task in todo]
            for future in concurrent.futures.as_completed(futures):
                part, key, lines, seconds = future.result()
                results[part].append((key, lines))
                per_part[part] += seconds
                done[part] += 1
                timings.append(f"{part}\t{key}\t{seconds:.1f}")
                first = lines[0][:110] if lines else ""
                print(f"[{time.perf_counter() - start:7.1f} s] {part} {done[part]}/{counts[part]} ({seconds:.1f} s) {first}",
                      file=sys.stderr, flush=True)
        for part in sorted(rest):
            lines = head[part] + [line for _, group in sorted(results[part]) for line in group]
            name = {"engines": "engines.txt", "certificates": "certificates.txt", "json": "json.txt"}[part]
            (args.out / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            print(f"{part}: {len(lines)} lines in {name}; {per_part[part]:.0f} s of task time", file=sys.stderr, flush=True)
    if args.timings:
        args.timings.write_text("part\ttask\tseconds\n" + "".join(line + "\n" for line in timings), encoding="utf-8")
    print(f"behaviour_snapshot: {time.perf_counter() - start:.0f} s in all", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
