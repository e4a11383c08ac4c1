"""bddlc as a library: what the commands do, for notebooks and scripts.

    import bddlc

    game = bddlc.open_model("domains/positional.bddl", "problems/httt/tic_4x4_d5.bddl")
    bddlc.solve(game).black_wins          # True
    bddlc.search(game).first_move.text    # 'occupy 2 2'

Every function takes a `GameModel` (`open_model` reads one from files, a
BDDL domain and problem or one `.pg` positional game; `open_text` from
text), works the same for both languages, and returns the result object
whose fields the commands' JSON shows (docs/cli.md, "JSON output";
docs/api.md has a worked example).  Bad input raises `bddl.BddlError` (its
`render()` is the command line's `file:line:col` report); an encoding or
option that does not fit the game raises `ValueError` with the reason.

The package holds no logic of its own: it names the entry points of
`compiler` (the pipeline) and `bddl` (the languages and the rules), so that
`import bddlc` is the one documented way in.
"""

from __future__ import annotations

from pathlib import Path

from bddl.errors import BddlError
from bddl.rules import BLACK, WHITE, GameRules, Play, Position, black_wins_by_rules
from compiler import __version__
from compiler.model import EncodingDoesNotFit, GameModel, ModelPathsError, open_model as _open_paths

__all__ = [
    "BLACK", "WHITE", "BddlError", "EncodingDoesNotFit", "GameModel", "GameRules", "ModelPathsError", "Play", "Position",
    "__version__", "black_wins_by_rules", "certify", "compile", "critical_depth", "open_model", "open_text", "search",
    "solve", "validate", "write_certificate",
]


def open_model(*paths: str | Path, depth: int | None = None) -> GameModel:
    """The game in these files: a BDDL domain and problem, or one positional game `GAME.pg`."""
    if len(paths) == 1 and isinstance(paths[0], (list, tuple)):
        listed = ", ".join(repr(str(p)) for p in paths[0])
        raise TypeError(f"give the paths as separate arguments, not one list: bddlc.open_model({listed})")
    return _open_paths([str(p) for p in paths], depth=depth)


def open_text(*, domain: str | None = None, problem: str | None = None, game: str | None = None,
              depth: int | None = None) -> GameModel:
    """The game written in these texts: `domain` and `problem` (BDDL), or `game` (a `.pg` game).

    The texts go by the names `<domain.bddl>`, `<problem.bddl>` and `<game.pg>`:
    in diagnostics (whose `render()` shows the line and a caret), in the
    model's `paths` and in a compiled formula's header.  The files they are
    read from are temporary and gone once the game is open, so no name may
    point at them.  A model from text has no files to hash: certificates
    (`write_certificate`, `certify`) need `open_model`."""
    import tempfile

    if (game is None) == (domain is None or problem is None):
        raise ModelPathsError("give domain= and problem= (BDDL), or game= (a .pg game)")
    texts = {"game.pg": game} if game is not None else {"domain.bddl": domain, "problem.bddl": problem}
    with tempfile.TemporaryDirectory(prefix="bddlc-") as folder:
        paths = []
        for name, text in texts.items():
            path = Path(folder) / name
            path.write_text(text or "", encoding="utf-8")
            paths.append(str(path))
        try:
            model = _open_paths(paths, depth=depth)
        except BddlError as exc:
            raise _renamed(exc, folder, texts) from None
    return _model_named(model, folder)


def _text_name(path: str, folder: str) -> str:
    return f"<{Path(path).name}>" if path.startswith(folder) else path


def _renamed(exc: BddlError, folder: str, texts: dict) -> BddlError:
    import dataclasses

    def name(span):
        return dataclasses.replace(span, file=_text_name(span.file, folder))

    sources = {f"<{file}>": text or "" for file, text in texts.items()}
    return type(exc)([dataclasses.replace(d, span=name(d.span)) for d in exc.diagnostics], sources)


def _model_named(model: GameModel, folder: str) -> GameModel:
    """The model with the texts' names where the temporary files' paths were."""
    import dataclasses

    paths = tuple(_text_name(p, folder) for p in model.paths)
    warnings = tuple(dataclasses.replace(w, span=dataclasses.replace(w.span, file=_text_name(w.span.file, folder)))
                     for w in model.warnings)
    return model.with_paths(paths, warnings)


def compile(model: GameModel, encoding: str | None = None, format: str | None = None) -> str:  # noqa: A001 (the command's name)
    """The formula `bddlc compile` writes: QCIR (or QDIMACS for an encoding built as clauses) unless `format` says."""
    formula = model.formula(encoding)
    fmt = format or formula.formats[0]
    if fmt not in formula.formats:
        raise ValueError(f"{formula.encoding} is written as {' or '.join(formula.formats)}, not {fmt}")
    return formula.text(fmt, False)[0]


def solve(model: GameModel, *, engine: str = "auto", encoding: str | None = None, solver: str = "default",
          preprocess: str = "none", timeout: float | None = None, cross_check: bool = False):
    """`bddlc solve`: a `compiler.solving.results.SolveResult` (verdict, first move, who answered, sizes).

    `engine="auto"` races the QBF route (which `encoding`, `solver` and `preprocess` configure) and the
    explicit engine, and `answered_by` says which answered first, which can differ from run to run;
    `engine="qbf"` or `"search"` asks one route, for a result that does not depend on timing."""
    from compiler.solving.routes import answer

    return answer(model, engine=engine, encoding=encoding, solver=solver, preprocess=preprocess, timeout=timeout,
                  cross_check=cross_check).result


def search(model: GameModel, *, algorithm: str = "minimax", max_positions: int = 20_000_000, race_patterns: bool = False,
           positional_rules: bool = False):
    """`bddlc search`: a `compiler.solving.search.outcome.SearchOutcome`; raises `SearchBudgetExceeded` past the budget."""
    from bddl.suggest import did_you_mean
    from compiler.solving.search.outcome import ALGORITHMS, search_model

    if algorithm not in ALGORITHMS:
        raise ValueError(f"there is no algorithm {algorithm!r}{did_you_mean(algorithm, ALGORITHMS)}: choose from {', '.join(ALGORITHMS)}")
    return search_model(model, algorithm=algorithm, max_positions=max_positions, race_patterns=race_patterns,
                        positional_rules=positional_rules)


def critical_depth(model: GameModel, low: int = 1, high: int | None = None, *, engine: str = "auto",
                   solver: str = "default", timeout: float | None = None, encoding: str | None = None):
    """`bddlc depth`: a `compiler.solving.critical_depth.DepthScan` (`.critical_depth`: the critical depth, or None);
    each depth by the route(s) `engine` names, as `solve`."""
    from compiler.solving.critical_depth import scan_depths

    return scan_depths(model, low, model.depth if high is None else high, solver=solver, timeout=timeout, encoding=encoding,
                       engine=engine)


def validate(model: GameModel, *, engine: str = "auto", solver: str = "default", timeout: float | None = None,
             max_lines: int | None = None):
    """`bddlc validate`: Black's strategy (a solve of each position Black reaches, by the route(s) `engine`
    names, as `solve`) played against every White reply by the rules; a
    `compiler.solving.strategy_validation.ValidationReport` (`.valid`, as the command's JSON says it)."""
    from compiler.solving.strategy import SolverStrategy
    from compiler.solving.strategy_validation import validate as play_out

    return play_out(model.rules, SolverStrategy(model, solver=solver, timeout=timeout, engine=engine), max_lines)


def write_certificate(model: GameModel, black_wins: bool, path: str | Path, *, max_memory: int | None = None,
                      core: str | None = None, at_once: bool = True):
    """`--certificate FILE`: the verdict's strategy certificate, written to `path` (docs/certificates.md);
    `core="python"` asks the Python engines (default: the compiled core's where it takes the game, the same bytes);
    `at_once=False` lists every reply, for a checker that predates format version 4."""
    from compiler.certificates import write_certificate as write

    if any(path.startswith("<") for path in model.paths):
        raise ValueError("a certificate names its game by its files' SHA-256, and a game from open_text has no files: "
                         "save the texts and open the game with bddlc.open_model(PATH, ...)")
    return write(model, black_wins, path, max_memory=max_memory, core=core, at_once=at_once)


def certify(model: GameModel, path: str | Path):
    """`bddlc certify`: the independent checker's verdict on a certificate (`.valid`, `.reason`, `.report()`)."""
    from compiler.certificates.check import check_files

    return check_files(model, str(path))
