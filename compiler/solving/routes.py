"""The routes to a verdict, alone or raced: what `solve`, `depth`, `validate` and `regress` ask.

bddlc answers "does Black win within d?" two independent ways: the QBF route
(an encoding and a solver: `qbf.route.solve_model`) and the explicit search
(`search.outcome.search_model`).  Which is faster differs by orders of magnitude
from game to game, in both directions (docs/benchmarks.md, "The portfolio"),
so by default (`engine="auto"`) both run side by side, one process each
(`portfolio.race`), and the first verdict wins.  `engine="qbf"` and
`engine="search"` keep one route, in-process, for research and for the
benchmarks of one route; they report progress as the race does (`on_wait`).

The search member is the explicit engine that suits the game, chosen by
measurement (docs/benchmarks.md, "The portfolio"):

* a `.pg` game: the positional solver's minimax (its rules' cuts built in);
* a positional BDDL model (every move claims an open cell, goals are sets of
  cells): the minimax with the positional rules, where they fit;
* a Breakthrough-like BDDL game: df-pn with the race patterns;
* any other BDDL game: the minimax.

A search that cannot finish (its positions budget or the memory guard) gives
way: it returns no verdict and the QBF route goes on alone.  With
`cross_check`, both run to their end and a contradiction is reported
(`Answer.disagreement`): one of them is wrong, which is a bug in bddlc or in
a solver.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from ..game_model import GameModel
from .processes.portfolio import WAIT_STEP, Member, RaceResult, race
from .results import EncodingSize, SolveResult

ENGINES = ("auto", "qbf", "search")
DEFAULT_ENGINE = "auto"
# positions the portfolio's search member may expand before it gives way (the
# QBF route goes on alone); `bddlc search`'s own default
SEARCH_POSITIONS = 20_000_000
# the same where the compiled core runs the member's engine (`GameModel.head_start_positions` is
# nonzero exactly then).  SEARCH_POSITIONS was sized for the Python engines (13,000-27,000 positions
# a second: 20 million is 12-25 minutes); the core expands 0.5-2.5 million a second, so the same
# budget gave way within 8-40 s and Breakthrough 3x7 (69.6 million df-pn positions, about 2.5 minutes
# in the core) was never decided by `solve`.  200 million is at most about 7 minutes of the core's
# df-pn (1.5 of its minimax), still less than the Python member's 20 million; the core's table stays
# within its memory bound whatever the budget (a quarter of --max-memory, at most 256 MB: df-pn
# collects, the minimax replaces), and --time-limit stops the member as before.
CORE_SEARCH_POSITIONS = 200_000_000


# What the members import on their first solve or search (the pipeline, the encodings, the engines).  A
# forked member's imports die with it, so unless the parent has them every race imports them again: about
# 80 ms a race, where a 3x3 game's search takes 2 ms and its QBF solve 15 ms (validate races once per position).
# A module missing here costs time, never correctness.
MEMBER_MODULES = (
    "bddl.engines.positional", "bddl.engines.positional_pns", "bddl.engines.positional_rules", "bddl.engines.relevance",
    "bddl.notation", "bddl.pg.generate", "circuits.arith", "circuits.qcir", "circuits.tseitin",
    "compiler.encodings.cor_plus", "compiler.encodings.corrective", "compiler.encodings.explicit",
    "compiler.encodings.memory_estimates", "compiler.encodings.pg_export", "compiler.encodings.positional",
    "compiler.encodings.symmetry", "compiler.solving.search.outcome", "compiler.solving.qbf.route",
    "compiler.solving.search.positional_rules", "compiler.solving.search.core", "bddl.engines.compiled", "compiler.solving.qbf.preprocessing",
    "compiler.solving.qbf.solver_programs", "compiler.solving.qbf.verdicts", "encodings.ascii",
)


def _import_member_modules(model: GameModel) -> None:
    import importlib

    for name in MEMBER_MODULES + model.member_modules:
        importlib.import_module(name)


@dataclass(frozen=True)
class Answer:
    """A solve's result, who answered, and what the other routes said (`cross_check`)."""

    result: SolveResult
    others: tuple[tuple[str, bool | None, str | None], ...] = ()  # (route, verdict, why none) of the routes that did not answer
    disagreement: tuple[str, str] | None = None  # two routes that contradict each other, each "route: verdict"


def qbf_name(model: GameModel, encoding: str | None, solver: str) -> str:
    """"qbf: cor+ / default", as `answered_by` says it before the solve names the program."""
    return f"qbf: {encoding or model.solve_encoding()} / {solver}"


def search_plan(model: GameModel) -> tuple[str, dict]:
    """The explicit engine that suits the game: its name and `search_model`'s options (the adapter's choice)."""
    return model.search_plan()


def head_start_positions(model: GameModel, core: str | None = None) -> int:
    """The positions the search may expand in-process before a race (`GameModel.head_start_positions`:
    the compiled core's); none where `core` is "python" (the Python engines are not that fast)."""
    return 0 if core == "python" else model.head_start_positions()


def search_positions(model: GameModel, core: str | None = None) -> int:
    """The search member's budget: CORE_SEARCH_POSITIONS where the core runs its engine, else SEARCH_POSITIONS."""
    return CORE_SEARCH_POSITIONS if head_start_positions(model, core) else SEARCH_POSITIONS


def search_result(model: GameModel, max_positions: int = SEARCH_POSITIONS, plan: tuple[str, dict] | None = None) -> SolveResult:
    """The search route's answer as a `SolveResult` (no verdict when the search gives way).
    `plan` is `search_plan(model)` when the caller has it already (it reads a
    positional model as a `.pg` game, which is worth doing once)."""
    import time

    from bddl.budget import MemoryBudgetExceeded
    from bddl.engines.minimax import SearchBudgetExceeded

    from .search.outcome import search_model

    name, options = search_plan(model) if plan is None else plan
    start = time.perf_counter()
    base = SolveResult(None, depth=model.depth, solver="search", seconds=0.0, size=EncodingSize(0, None, 0), encoding="none",
                       black_first=model.black_first, answered_by=name, depth_solved=model.depth)
    try:
        found = search_model(model, max_positions=max_positions, **options)
    except SearchBudgetExceeded as exc:
        return dataclasses.replace(base, seconds=time.perf_counter() - start, reason=f"the search gave way: {exc}")
    except MemoryBudgetExceeded as exc:
        return dataclasses.replace(base, seconds=time.perf_counter() - start, reason=f"the search gave way: {exc}")
    reason = None
    if found.black_wins and not model.black_first:
        reason = "White moves first: Black has no first move"
    return dataclasses.replace(base, black_wins=found.black_wins, seconds=found.seconds, first_move=found.first_move,
                               positions=found.positions, reason=reason, move_source="search" if found.first_move else None)


def qbf_result(model: GameModel, *, encoding: str | None, solver: str, preprocess: str, timeout: float | None,
               stop: Callable[[], bool] | None = None) -> SolveResult:
    """The QBF route's answer, `answered_by` saying encoding and program ("qbf: cor+ / depqbf")."""
    from .qbf.route import solve_model

    result = solve_model(model, encoding=encoding, solver=solver, preprocess=preprocess, timeout=timeout, stop=stop)
    program = result.answered_by or result.solver
    return dataclasses.replace(result, answered_by=f"qbf: {result.encoding} / {program}")


def answer(
    model: GameModel,
    *,
    engine: str = DEFAULT_ENGINE,
    encoding: str | None = None,
    solver: str = "default",
    preprocess: str = "none",
    timeout: float | None = None,
    stop: Callable[[], bool] | None = None,
    cross_check: bool = False,
    max_positions: int | None = None,
    on_wait: Callable[[list[tuple[str, float]]], None] | None = None,
    core: str | None = None,
) -> Answer:
    """Does Black win within the model's depth: by the route(s) `engine` names.

    An explicit `encoding`, `solver` or `preprocess` is the QBF route's; the
    race gives them to its QBF member unchanged.  `timeout` bounds the whole
    answer; `stop` (True: give up) is polled by the QBF route alone.  `on_wait`, the
    progress, is called every `WAIT_STEP` seconds with the routes still running and how
    long each has run, whichever the engine.  `max_positions` bounds the search (default:
    `search_positions(model, core)`).  `core` ("compiled", "python"; None: compiled where it
    can) is the search route's implementation (`bddlc solve --core`)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if encoding is not None:
        model.check_encoding(encoding)  # a misfit is the caller's usage error, before anything runs
    if engine == "qbf":
        return Answer(alone(qbf_name(model, encoding, solver), on_wait,
                             lambda: qbf_result(model, encoding=encoding, solver=solver, preprocess=preprocess, timeout=timeout,
                                                stop=stop)))
    budget = search_positions(model, core) if max_positions is None else max_positions
    plan = search_plan(model)
    if core is not None:
        plan = (plan[0], {**plan[1], "core": core})
    if engine == "search":
        return Answer(alone(plan[0], on_wait, lambda: search_result(model, budget, plan)))
    head = None if cross_check else _head_start(model, plan, timeout, core)
    if head is not None:
        return Answer(head, ((qbf_name(model, encoding, solver), None, HEAD_START_NOTE),))
    _import_member_modules(model)
    members = [
        Member(plan[0], lambda: search_result(model, budget, plan)),
        Member(qbf_name(model, encoding, solver), lambda: qbf_result(model, encoding=encoding, solver=solver,
                                                                     preprocess=preprocess, timeout=timeout)),
    ]
    # the search has no clock of its own: the race stops every member at the limit, and a verdict that comes
    # later is not taken, as the QBF route alone would not give one (its solver is killed at the limit)
    raced = race(members, timeout=timeout, cross_check=cross_check, on_wait=on_wait, stop=stop)
    return _answer_of(model, raced, timeout)


# What `others` says of the QBF route when the search answered within its head start.
HEAD_START_NOTE = "not started: the search answered within its head start"


def _head_start(model: GameModel, plan: tuple[str, dict], timeout: float | None, core: str | None = None) -> SolveResult | None:
    """The search alone, in this process, within the few positions the model's engine expands in
    well under a tenth of a second (`head_start_positions`: the compiled core's, none for an
    engine in Python or under `core` "python"); its verdict, or None where it gave way and the race is needed.
    A race forks two members and starts a solver: on a game the core decides in a millisecond
    that cost 20-30 ms (180 GTTT games: 4.2 s of racing against 0.4 s of searching)."""
    positions = head_start_positions(model, core)
    if not positions or (timeout is not None and timeout < HEAD_START_SECONDS):
        return None
    found = search_result(model, positions, plan)
    return found if found.black_wins is not None else None


# a head start is asked only of a time limit that leaves room for it (seconds)
HEAD_START_SECONDS = 0.5


def alone(name: str, on_wait: Callable[[list[tuple[str, float]]], None] | None, route: Callable[[], SolveResult]) -> SolveResult:
    """One route, run in this process as it always was (its exceptions and its output stay the
    caller's, which a race's forked member would turn into a failure string and silence), with the
    race's progress: `on_wait` is called as `portfolio.race` calls it, every `WAIT_STEP` seconds with
    the route's name and how long it has run, from a thread, since the route holds this one (a QBF
    solve waits on its solver, a search computes)."""
    if on_wait is None:
        return route()
    import threading
    import time

    done = threading.Event()
    start = time.perf_counter()

    def tick() -> None:
        while not done.wait(WAIT_STEP):
            on_wait([(name, time.perf_counter() - start)])

    ticker = threading.Thread(target=tick, name="bddlc-progress", daemon=True)
    ticker.start()
    try:
        return route()
    finally:
        done.set()
        ticker.join()


def _answer_of(model: GameModel, raced: RaceResult, timeout: float | None) -> Answer:
    others = tuple((_name(f), f.black_wins, _why_none(f, raced.winner is not None)) for f in raced.finishes
                   if f is not raced.winner)
    disagreement = None
    if raced.disagreement is not None:
        first, second = raced.disagreement
        disagreement = (f"{_name(first)}: {verdict_words(first.black_wins)}", f"{_name(second)}: {verdict_words(second.black_wins)}")
    if raced.winner is not None:
        result = raced.winner.result
        assert isinstance(result, SolveResult)
        return Answer(dataclasses.replace(result, seconds=raced.seconds), others, disagreement)
    reasons = "; ".join(f"{name}: {why}" for name, _, why in others if why)
    limit = f"time limit of {timeout:g} s" if timeout is not None else "no verdict"
    if timeout is not None and raced.seconds >= timeout:
        reasons = limit  # as the QBF route alone says it; `others` has each route's own reason
    unknown = SolveResult(None, depth=model.depth, solver="portfolio", seconds=raced.seconds, size=EncodingSize(0, None, 0),
                          reason=reasons or limit, encoding="none", black_first=model.black_first, depth_solved=model.depth)
    return Answer(unknown, others, disagreement)


def _name(finish) -> str:
    """The route as it said it answered ("qbf: corrective / depqbf"), or as it was started."""
    return getattr(finish.result, "answered_by", None) or finish.name


def _why_none(finish, answered: bool = True) -> str | None:
    if finish.stopped:
        return "stopped: another route answered first" if answered else "stopped at the time limit"
    if finish.error:
        return f"failed: {finish.error}"
    result = finish.result
    return None if result is None or result.black_wins is not None else result.reason


def verdict_words(black_wins: bool | None) -> str:
    """A route's verdict as `solve` says it."""
    return {True: "Black wins", False: "no winning strategy", None: "no verdict"}[black_wins]
