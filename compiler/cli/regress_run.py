"""`bddlc regress`: a folder of models checked against a manifest of expected answers.

The manifest is TOML, in the form of our own suite's `problems/expected.toml`
(docs/regress.md describes it for users)::

    domains = "../domains"        # optional: where `domain` paths start (default: the manifest's folder)
    problems = "."                # optional: where `file` paths start (default: the manifest's folder)

    [[problem]]
    file = "httt/tic_3x3_d9.bddl" # the problem (BDDL), or a positional game (.pg, no domain)
    domain = "positional.bddl"    # BDDL problems only
    depth = 9                     # the depth the answer is for (default: the problem's #depth)
    black_wins = false            # the expected answer within `depth` plies
    critical_depth = 5            # optional: the fewest plies within which Black wins
    slow = true                   # optional: run only with --slow
    seconds = 12.5                # optional: about how long it takes (on Dask, the longest start first)

`source` and `note` are notes for people, and `engine` is read by `python -m
bench` (its search engine for the entry): regress ignores all three.  Any other
key is an error naming the key meant (`critcal_depth`: did you mean
'critical_depth'?), so that a misspelt key cannot silently drop a check.
Each entry is one task: solved as `bddlc solve` decides it (`routes.answer`:
the QBF route and the explicit engine raced by default, or one route; for a
BDDL model and a .pg game alike), searched with the game engine (`search`, in a child process killed
at the time limit; the explicit positional solver for a .pg game), or both.  An entry *agrees* when every verdict equals the expectation, is a
*mismatch* when any verdict contradicts it, and is *undecided* when no
verdict contradicts it but some method gave none (a time limit).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bddl.ast import Span
from bddl.errors import BddlError, error
from bddl.suggest import missing_file_hint

from ..model import is_positional_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found]

METHODS = ("solve", "search", "both")
# Per check.  Our own suite's slowest entries that are not marked slow take
# 45 to 60 s each on the 2-core machine with --workers 2 under load
# (connect4_5x4_d19: 44.6 s alone, past 60 s beside another check): twice
# that leaves a margin, and a check that needs more is worth marking slow.
DEFAULT_TIMEOUT = 120.0
AGREE, MISMATCH, UNDECIDED = "agree", "mismatch", "undecided"
TOP_KEYS = ("domains", "problems", "problem")
ENTRY_KEYS = ("file", "domain", "depth", "black_wins", "critical_depth", "slow", "seconds")
NOTE_KEYS = ("source", "note", "engine")  # for people, and for `python -m bench`: not read here


@dataclass(frozen=True)
class Entry:
    """One manifest entry, its paths resolved."""

    name: str  # the `file` value, as written: names the entry in reports
    problem: Path
    domain: Path | None  # None for a .pg game
    depth: int | None  # None: the problem's own depth
    black_wins: bool
    critical_depth: int | None = None
    slow: bool = False
    line: int = 0  # where the entry starts in the manifest
    seconds: float | None = None  # the manifest's estimate of its time, if any: the order tasks start in

    @property
    def positional(self) -> bool:
        return self.domain is None


@dataclass(frozen=True)
class Check:
    """One method's answer on one entry: `black_wins` None when it gave none (`note` says why)."""

    method: str  # solve | search
    depth: int
    black_wins: bool | None
    seconds: float
    note: str = ""


@dataclass(frozen=True)
class Verdict:
    entry: Entry
    status: str  # agree | mismatch | undecided
    checks: tuple[Check, ...] = ()
    problems: tuple[str, ...] = field(default=())  # what disagreed, in words
    worker: str = ""
    warnings: tuple[str, ...] = ()  # the model's own warnings (a first-move cut that changes the question, ...)


# --- the manifest ----------------------------------------------------------------

def _toml_value(value) -> str:
    """A value as the manifest wrote it: "yes" with its quotes, 1 without."""
    return f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def read_manifest(path: Path) -> list[Entry]:
    """The manifest's entries; a bad manifest raises BddlError located in it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BddlError(error("no such file", Span(str(path), 0, 0, 0, 0), missing_file_hint(path))) from None
    except IsADirectoryError:
        manifests = sorted(str(p) for p in path.glob("*.toml"))
        listed = "; in this folder: " + ", ".join(manifests) if manifests else ", a TOML file"
        raise BddlError(error("is a folder, not a manifest", Span(str(path), 0, 0, 0, 0), f"note: give the manifest file{listed}")) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BddlError(error(f"cannot read the manifest: {exc}", Span(str(path), 0, 0, 0, 0))) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, column = _toml_position(str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "not TOML"
        hint = "TOML, e.g. [[problem]] then lines like file = \"a.bddl\""
        lines = text.splitlines()
        if 0 < line <= len(lines) and _unclosed_string(lines[line - 1]):  # tomllib: "Illegal character '\n'"
            message, hint = "this string is never closed", "a closing \" on the same line, e.g. file = \"a.pg\""
            column = lines[line - 1].index('"') + 1
        raise BddlError(error(message, Span(str(path), line, column, line, column + 1), hint)) from None
    starts = [number for number, line in enumerate(text.splitlines(), start=1) if line.strip() == "[[problem]]"]
    for key in data:
        if key not in TOP_KEYS:
            raise _unknown_key(key, TOP_KEYS, path, _top_key_span(path, text, key),
                               "the manifest's keys: domains and problems at the top, then [[problem]] tables")
    base = path.parent
    domains = base / str(data.get("domains", "."))
    problems = base / str(data.get("problems", "."))
    entries = data.get("problem", [])
    if not isinstance(entries, list) or not entries:
        raise BddlError(error("the manifest has no [[problem]] entries", Span(str(path), 1, 1, 1, 2),
                              "[[problem]] tables with file, domain, black_wins"))
    found = []
    for index, raw in enumerate(entries):
        start = starts[index] if index < len(starts) else 0
        found.append(_entry(raw, path, text, start, domains, problems))
    return found


def _meant(path: Path, key: str, value: str) -> str:
    """`file = "wheel.pg"` for a manifest's `file = "weel.pg"`: the file of that folder the value
    most probably meant, as the manifest would name it; "" when none is close."""
    from bddl.suggest import candidates

    try:
        names = [entry.name for entry in path.parent.iterdir() if entry.is_file()]
    except OSError:
        return ""
    close = [name for name in candidates(path.name, names, cutoff=0.75) if name != path.name]
    if not close:
        return ""
    head = value[: len(value) - len(path.name)] if value.endswith(path.name) else ""
    return f'note: did you mean {key} = "{head}{close[0]}"?'


def _unclosed_string(line: str) -> bool:
    """Does the TOML line open a basic string that it does not close?"""
    return line.split("#", 1)[0].count('"') % 2 == 1


def _toml_position(message: str) -> tuple[int, int]:
    match = re.search(r"at line (\d+), column (\d+)", message)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _unknown_key(key: str, known: tuple[str, ...], path: Path, span: Span, hint: str) -> BddlError:
    """A key regress does not read: an error, not a silent skip, because a misspelt
    `critical_depth` would otherwise drop its check and let the run agree."""
    from bddl.suggest import did_you_mean

    return BddlError(error(f"unknown key `{key}`{did_you_mean(key, known)}", span, f"note: {hint}"))


def _top_key_span(path: Path, text: str, key: str) -> Span:
    """Where a top-level key (or a table header such as `[[problme]]`) is written."""
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(rf"\s*(\[\[?\s*)?{re.escape(key)}\b", line)
        if match:
            column = line.index(key) + 1
            return Span(str(path), number, column, number, column + len(key))
    return Span(str(path), 1, 1, 1, 2)


def _key_span(path: Path, text: str, start: int, key: str | None) -> Span:
    """Where `key` is written in the entry that starts on line `start` (the header if it is not)."""
    lines = text.splitlines()
    if key is not None and start:
        for number in range(start + 1, len(lines) + 1):
            line = lines[number - 1]
            if line.strip().startswith("[") and number > start:
                break
            match = re.match(rf"\s*{re.escape(key)}\s*=", line)
            if match:
                column = line.index(key) + 1
                return Span(str(path), number, column, number, len(line) + 1)
    return Span(str(path), start, 1, start, 12)


def _entry(raw: dict, path: Path, text: str, start: int, domains: Path, problems: Path) -> Entry:
    def fail(message: str, key: str | None, hint: str) -> BddlError:
        return BddlError(error(message, _key_span(path, text, start, key), hint))

    form = 'file = "x.bddl", domain = "d.bddl", black_wins = true'
    for key in raw:  # first: `black_win` is a misspelling, not a missing `black_wins`
        if key not in ENTRY_KEYS + NOTE_KEYS:
            raise _unknown_key(key, ENTRY_KEYS, path, _key_span(path, text, start, key),
                               f"an entry's keys: {', '.join(ENTRY_KEYS)}; notes for people go in `source` or `note`")
    if not isinstance(raw.get("file"), str):
        raise fail("the entry has no `file` (the problem, or a .pg game)", "file" if "file" in raw else None, form)
    problem = problems / raw["file"]
    positional = is_positional_game(problem)
    if "black_wins" in raw and not isinstance(raw["black_wins"], bool):
        raise fail(f"`black_wins` is true or false, not {_toml_value(raw['black_wins'])}", "black_wins", "black_wins = true (no quotes)")
    if not isinstance(raw.get("black_wins"), bool):
        raise fail("the entry has no `black_wins` (true or false)", None, "black_wins = true")
    domain = None
    if positional and "domain" in raw:
        raise fail("a .pg game stands alone: its entry has no `domain`", "domain", 'file = "g.pg", black_wins = true')
    if not positional:
        if not isinstance(raw.get("domain"), str):
            raise fail("a BDDL entry needs its `domain` file", "domain" if "domain" in raw else None, form)
        domain = domains / raw["domain"]
        if not domain.is_file():
            raise fail(f"no domain file {domain}", "domain",
                       _meant(domain, "domain", raw["domain"]) or "a path relative to the manifest's `domains` folder")
    if not problem.is_file():
        raise fail(f"no problem file {problem}", "file",
                   _meant(problem, "file", raw["file"]) or "a path relative to the manifest's `problems` folder")
    for key in ("depth", "critical_depth"):
        if key in raw and (not isinstance(raw[key], int) or isinstance(raw[key], bool) or raw[key] < 1):
            raise fail(f"`{key}` must be a whole number >= 1", key, f"{key} = 5")
    if not isinstance(raw.get("slow", False), bool):
        raise fail("`slow` must be true or false", "slow", "slow = true")
    seconds = raw.get("seconds")
    if seconds is not None and (not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0):
        raise fail("`seconds` must be a number of seconds >= 0", "seconds", "seconds = 2.5")
    return Entry(raw["file"], problem, domain, raw.get("depth"), raw["black_wins"], raw.get("critical_depth"),
                 bool(raw.get("slow", False)), start, None if seconds is None else float(seconds))


# --- running one entry -------------------------------------------------------------

@dataclass(frozen=True)
class Options:
    method: str = "solve"
    timeout: float | None = DEFAULT_TIMEOUT
    solver: str = "default"
    engine: str = "auto"  # the solve method's route(s): `routes.answer`'s auto, qbf or search; `both` solves by qbf

    @property
    def solve_engine(self) -> str:
        """The route(s) of the solve checks: the QBF route under `both`, whose point is two independent answers."""
        return "qbf" if self.method == "both" else self.engine


class ModelDoesNotLoad(Exception):
    """A search child refused the entry's model (exit status 1): its first diagnostic line."""


def check_entry(entry: Entry, options: Options) -> Verdict:
    """Every check the method asks for on one entry, and the entry's status.  Runs on a worker."""
    from ..solving.processes.cluster import this_worker
    from ..solving.results import MoveCheckError

    methods = ("solve", "search") if options.method == "both" else (options.method,)
    try:
        checks, problems, warnings = _checks(entry, options, methods)
    except BddlError as exc:  # a model that no longer loads fails its entry, not the whole run
        return Verdict(entry, MISMATCH, (), (f"the model does not load: {exc.diagnostics[0].headline()}",), this_worker().name)
    except ModelDoesNotLoad as exc:
        return Verdict(entry, MISMATCH, (), (f"the model does not load: {exc}",), this_worker().name)
    except MoveCheckError as exc:  # the game engine refutes the solver's first move: a wrong answer somewhere
        return Verdict(entry, MISMATCH, (), (f"the solver's first move is refuted: {exc}",), this_worker().name)
    if problems:
        status = MISMATCH
    elif all(c.black_wins is not None for c in checks):
        status = AGREE
    else:
        status = UNDECIDED
    return Verdict(entry, status, tuple(checks), tuple(problems), this_worker().name, warnings)


def _checks(entry: Entry, options: Options, methods: tuple[str, ...]) -> tuple[list[Check], list[str], tuple[str, ...]]:
    """Each method at each depth the entry asks about; the answers, what contradicts the manifest, and
    the model's warnings (each command prints them; regress under the entry's line)."""
    model = _model(entry)
    depth, warnings = model.depth, tuple(w.headline() for w in model.warnings)
    asked = [(depth, entry.black_wins)]
    if entry.critical_depth is not None:  # a win at the critical depth and none just below it
        asked += [(entry.critical_depth, True)] + ([(entry.critical_depth - 1, False)] if entry.critical_depth > 1 else [])
    checks, problems = [], []
    for method in methods:
        for at, expected in dict.fromkeys(asked):
            check = _solve(entry, at, options, model) if method == "solve" else _search(entry, at, options)
            checks.append(check)
            if check.black_wins is not None and check.black_wins != expected:
                problems.append(f"{method} at depth {at}: {_words(check.black_wins)}, expected {_words(expected)}")
    return checks, problems, warnings


def _words(black_wins: bool) -> str:
    return "Black wins" if black_wins else "no win"


def _model(entry: Entry, depth: int | None = None):
    """The entry's game at `depth` (default: the entry's `depth`, else its model's).  Read even when
    only the search checks it (a few ms), so that a broken game is a located mismatch whatever the
    method, and a warning (a `#firstmoves` that leaves out openings: the verdict is the cut game's)
    is seen in regress as in every other command."""
    from ..model import open_model

    paths = [str(entry.problem)] if entry.positional else [str(entry.domain), str(entry.problem)]
    return open_model(paths, depth=entry.depth if depth is None else depth)


def _solve(entry: Entry, depth: int, options: Options, model) -> Check:
    """What `bddlc solve GAME... --depth D` runs (a .pg game cut to, or continued to, `depth` time
    points).  `model` is the entry's, read once: another depth (a critical depth's) is read again
    at that depth, as the command line would."""
    from ..solving.qbf.route import solve_model

    if depth != model.depth:
        model = _model(entry, depth)
    if options.solve_engine == "qbf":
        result = solve_model(model, solver=options.solver, timeout=options.timeout)
    else:
        from ..solving.routes import answer

        result = answer(model, engine=options.solve_engine, solver=options.solver, timeout=options.timeout).result
    return Check("solve", depth, result.black_wins, result.seconds, result.reason or "")


def _search(entry: Entry, depth: int, options: Options) -> Check:
    """`bddlc search --json` in a child process, killed at the time limit (the engine cannot be interrupted in-process).

    The child runs in the repository's folder (so that `-m compiler.cli` is
    found without an install), so the model's paths are made absolute: the
    manifest's relative paths are relative to where bddlc was started."""
    from ..solving.processes.processes import spawn

    files = [entry.problem] if entry.positional else [entry.domain, entry.problem]
    model = [str(Path(f).resolve()) for f in files if f is not None]
    command = [sys.executable, "-m", "compiler.cli", "search", *model, "--depth", str(depth), "--json"]
    start = time.perf_counter()
    proc = spawn(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        out, err = proc.communicate(timeout=options.timeout)
    except subprocess.TimeoutExpired:
        proc.kill_group()
        proc.communicate()
        return Check("search", depth, None, time.perf_counter() - start, "time limit")
    except BaseException:
        proc.kill_group()
        proc.wait()
        raise
    seconds = time.perf_counter() - start
    if proc.returncode == 1:  # bad input: the entry's model, not a missing verdict
        raise ModelDoesNotLoad((err.strip().splitlines() or ["no message"])[0][:300])
    try:
        answer = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return Check("search", depth, None, seconds, (err.strip().splitlines() or ["no answer"])[-1][:200])
    return Check("search", depth, answer.get("black_wins"), seconds, answer.get("error") or "")


# --- reports ------------------------------------------------------------------------

def table(verdicts: list[Verdict]) -> str:
    """One line per entry (in manifest order) and a count of each status."""
    width = max([len("entry")] + [len(v.entry.name) for v in verdicts])
    lines = [f"{'entry':<{width}}  {'depth':>5}  {'expected':<10}  {'status':<9}  answers"]
    for v in verdicts:
        answers = "; ".join(
            f"{c.method}@{c.depth}: {'?' if c.black_wins is None else _words(c.black_wins)} ({c.seconds:.2f} s{', ' + c.note if c.black_wins is None and c.note else ''})"
            for c in v.checks
        )
        depth = v.checks[0].depth if v.checks else (v.entry.depth or "")
        lines.append(f"{v.entry.name:<{width}}  {depth:>5}  {_words(v.entry.black_wins):<10}  {v.status.upper() if v.status == MISMATCH else v.status:<9}  {answers}")
        lines.extend(f"  {warning}" for warning in v.warnings)
    lines.append(summary(verdicts))
    return "\n".join(lines)


def summary(verdicts: list[Verdict]) -> str:
    counts = {status: sum(v.status == status for v in verdicts) for status in (AGREE, MISMATCH, UNDECIDED)}
    entries = f"{len(verdicts)} entr{'y' if len(verdicts) == 1 else 'ies'}"
    return f"{entries}: {counts[AGREE]} agree, {counts[MISMATCH]} mismatch, {counts[UNDECIDED]} undecided"


def junit(verdicts: list[Verdict], suite_name: str) -> str:
    """JUnit XML: one test case per entry; a mismatch is a failure, an undecided entry is skipped."""
    import xml.etree.ElementTree as ET

    total = sum(c.seconds for v in verdicts for c in v.checks)
    suite = ET.Element("testsuite", name=suite_name, tests=str(len(verdicts)),
                       failures=str(sum(v.status == MISMATCH for v in verdicts)), errors="0",
                       skipped=str(sum(v.status == UNDECIDED for v in verdicts)), time=f"{total:.3f}")
    for v in verdicts:
        case = ET.SubElement(suite, "testcase", classname=suite_name, name=v.entry.name,
                             time=f"{sum(c.seconds for c in v.checks):.3f}")
        if v.status == MISMATCH:
            ET.SubElement(case, "failure", message="; ".join(v.problems)).text = "\n".join(v.problems)
        elif v.status == UNDECIDED:
            reasons = [f"{c.method}@{c.depth}: {c.note or 'no verdict'}" for c in v.checks if c.black_wins is None]
            ET.SubElement(case, "skipped", message="undecided: " + "; ".join(reasons))
    ET.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
