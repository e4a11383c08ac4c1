"""A positional game (`.pg`: cells, turns, winning sets or a Hex goal) behind the one `GameModel` interface.

What a positional game answers its own way: the game continued past its file's time points (the
turn pattern repeats), the positional encodings (COR+, COR, the implicit-state EA/EN/ET, LN, SN)
with the claimed cell decoded from an assignment, the QBF route's policy (shallower depths first;
the solver's first claim confirmed by the explicit positional solver), the positional solver and
df-pn on its rules, the compiled core, the certificate's shortcuts (the cells Black still needs,
dead cells, White's pairings, the board's symmetries), and PPN²'s recipe.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from bddl.rules import BLACK, WHITE, Play, Position, pg_rules

from ..game_model import HEAD_START_POSITIONS, CertificateHelp, Formula, GameModel, LanguageWords, plies, version

if TYPE_CHECKING:
    from bddl.pg.game import PositionalGame

# Measured on the 180 GTTT games of the corpus (docs/benchmarks.md, "Positional games").
PG_SOLVER = "depqbf"
# CAQE's light expansion refinement on ET: Hein 02 at depth 11 refuted in 8 s
# instead of 32 s, depth 13 proved in 40 s instead of no verdict in 60 s.
ENCODING_SOLVER_OPTIONS = {("et", "caqe"): ("--expansion-refinement", "light")}
PG_SOLVERS = {"et": "caqe", "en": "caqe", "ea": "caqe", "ln": "caqe", "la": "caqe", "sn": "caqe", "sa": "caqe"}
# Options per program on these formulas: none.  DepQBF's long-distance
# resolution cut two GTTT 4x4 refutations from 18 s and 34 s to 6 s and 26 s,
# but over the 35 4x4 games measured both ways it took 498 s against 473 s
# without (docs/benchmarks.md, "Positional games").
PG_SOLVER_OPTIONS: dict[str, tuple[str, ...]] = {}
# Positions the explicit solver may expand to confirm a first move (a few
# seconds; the 4x4 GTTT games need far fewer).
CHECK_POSITIONS = 300_000
# Deepening goes on to the next shallow depth only while each took less than this (seconds).
DEEPENING_STOP = 1.0
# The explicit solver expands about 2,500 positions a second on a 2-core
# machine under moderate load (Hein 02 5x5 at depth 13: 535k positions in
# 217 s) and well under half that under heavy load, so the check gets half
# of what is left of the time limit at 1,000 a second: a check must not turn
# a verdict within the limit into an answer after it.
CHECK_RATE = 1_000


def game_at(game, black: int, white: int, t: int):
    """A positional game going on from time point t, the stones so far as initial stones."""
    cells = range(len(game.cells))
    return dataclasses.replace(
        game,
        times=game.times[t:],
        turns=game.turns[t:],
        black_initials=frozenset(c for c in cells if black >> c & 1),
        white_initials=frozenset(c for c in cells if white >> c & 1),
        first_moves=game.first_moves if t == 0 else None,
    )


def play_of_cell(model: GameModel, cell: int) -> Play | None:
    """The first claim of `cell` as a `Play` of the rules (None: not a legal first claim)."""
    for play in model.rules.plays(model.rules.initial):
        if play.move == cell:
            return play
    return None


def pg_model(game: PositionalGame, paths: tuple[str, ...] = (), depth: int | None = None) -> PgModel:
    """A model of a positional game already read (PPN²'s workers, the tests)."""
    rules = pg_rules(game, depth)
    return PgModel(paths, rules, pg=rules.game)


@dataclass(frozen=True)
class PgModel(GameModel):
    """A checked positional game (`bddl.pg.game.PositionalGame`) at the depth asked about."""

    pg: PositionalGame = field(kw_only=True)

    language = "pg"
    # White's pairings (`bddl.pg.pairing`) ask a SAT solver at the start: pysat's import took 0.15 s of a
    # forked search member's 0.16 s on a 3x3 GTTT game, where the search itself takes a millisecond
    member_modules = ("bddl.pg.pairing", "bddl.sat")
    words = LanguageWords(
        model="positional game",
        white_first="White moves first",
        candidates_note="only depths ending on Black's turn can be critical: ",
        move_form="a cell's name",
        move_placeholder="CELL",
    )

    @classmethod
    def open(cls, path: str, *, depth, limits) -> PgModel:
        from bddl.ast import Span
        from bddl.errors import BddlLimitError, BddlSemanticError, error
        from bddl.pg.reader import load_pg_located

        read = load_pg_located(path)
        game = read.game
        asked = game.depth if depth is None else depth
        if asked < 1:  # as a BDDL problem's #depth (bddl/validate.py)
            raise BddlSemanticError(error(f"the depth must be at least 1, not {asked}", Span(path, 0, 0, 0, 0),
                                          "a depth D >= 1: the plies Black has to win in"))
        if asked > limits.max_depth:
            raise BddlLimitError(error(f"a depth of {asked} is beyond the limit of {limits.max_depth}", Span(path, 0, 0, 0, 0),
                                       f"a smaller depth, or raise the limit with --max-depth {asked}", code="limit"))
        rules = pg_rules(game, depth)
        return cls((path,), rules, read.warnings, pg=rules.game)

    def with_paths(self, paths: tuple[str, ...], warnings) -> PgModel:
        return dataclasses.replace(self, paths=paths, warnings=warnings)

    # -- the game at another depth or from a position ------------------------------------------

    def at_depth(self, depth: int) -> PgModel:
        if depth == self.depth:
            return self
        rules = pg_rules(self.pg, depth)
        return dataclasses.replace(self, rules=rules, pg=rules.game)

    def at_position(self, position: Position, plies: int | None = None) -> PgModel:
        left = self.depth - position.ply if plies is None else plies
        rules = pg_rules(game_at(self.pg.with_depth(position.ply + left), position.black, position.white, position.ply))
        return dataclasses.replace(self, rules=rules, pg=rules.game)

    def black_has_goal(self) -> bool:
        return bool(self.pg.black_wins) or self.pg.graph is not None

    @property
    def turn_period(self) -> int:
        return len(self.pg.turns)

    # -- encodings ----------------------------------------------------------------------------

    def own_encodings(self) -> list[str]:
        from ..encodings import pg_encoding_names

        return pg_encoding_names()

    def default_encoding(self) -> str:
        return self.solve_encoding()

    def solve_encoding(self) -> str:
        from ..encodings import pg_solve_encoding

        return pg_solve_encoding(self.pg)

    def misfit(self, encoding: str) -> str | None:
        from ..encodings import pg_encoding_misfit

        return pg_encoding_misfit(self.pg, encoding)

    def compile(self, encoding: str) -> Formula:
        from ..encodings import encode_positional

        game = self.pg
        compiled = encode_positional(game, encoding)
        first = {"black": "Black moves first", "white": "White moves first", None: "no moves"}[compiled.first_side]
        open_game = compiled.game
        header = (
            f"bddlc {version()}, encoding: {compiled.name}",
            f"game: {self.paths[0] if self.paths else ''}",
            f"cells: {len(game.cells)} ({open_game.size} open), time points: {game.depth} "
            f"({open_game.depth} encoded), {first}",
            f"true iff Black wins within {plies(game.depth)}",
        )

        def first_move(value: Callable[[int], bool]) -> Play | None:
            if compiled.first_side != BLACK:
                return None
            cell = compiled.first_move(value)
            return None if cell is None else play_of_cell(self, compiled.game.cells[cell])

        return Formula(compiled.name, header, compiled.circuit, compiled, compiled.qdimacs, first_move)

    # -- the QBF route ------------------------------------------------------------------------------

    def solve_qbf(self, *, encoding: str | None = None, solver: str = "default", preprocess: str = "none",
                  timeout: float | None = None, stop: Callable[[], bool] | None = None, deepening: bool = True):
        """The QBF route, shallower games first: the depths ending on Black's turn, in increasing
        order, each as long as the one before took under DEEPENING_STOP seconds.  A win within
        fewer time points is a win (Black stops the clock), and QBF solving time grows steeply
        with the depth: on 4x4 GTTT a game won within 7 of its 16 points is decided at depth 7 in
        under a second and not at all in 20 s at depth 16.  A refuted shallow depth says nothing
        about the game, so the full depth follows; what that costs a lost game is the shallow
        refutations, about a tenth of the full one.  Black's first claim, read from the
        solver's assignment, is confirmed by the explicit solver within a budget of positions:
        a claim it refutes is a bug (`MoveCheckError`), one it cannot decide is shown unchecked."""
        from ..solving.qbf.route import Clock, check_options
        from ..solving.qbf.solver_programs import DEFAULT_SOLVER

        name = self.check_encoding(encoding) if encoding is not None else self.solve_encoding()
        program = PG_SOLVERS.get(name, PG_SOLVER) if solver == DEFAULT_SOLVER else solver
        check_options(program, preprocess)
        clock = Clock.started(timeout)
        game = self.pg
        shallow = [d for d in range(1, game.depth) if game.turns[d - 1] == BLACK] if deepening else []
        if shallow and shallow[-1] == max((i + 1 for i, side in enumerate(game.turns) if side == BLACK), default=0):
            shallow.pop()  # the full game ends with that point (its trailing White points are dropped)
        for depth in shallow:
            began = time.perf_counter()
            attempt = _solve_once(self.at_depth(depth), name, program, preprocess, clock, stop)
            if attempt.black_wins:
                return _result(attempt, game, program, name, preprocess, clock, depth)
            if attempt.black_wins is None or time.perf_counter() - began > DEEPENING_STOP:
                break
        return _result(_solve_once(self, name, program, preprocess, clock, stop), game, program, name, preprocess, clock, game.depth)

    # -- the explicit engines ------------------------------------------------------------------------

    def search_plan(self) -> tuple[str, dict]:
        return "search: the positional solver", {"algorithm": "minimax"}

    def head_start_positions(self) -> int:
        from ..solving.search.core import compiled_can_search

        return HEAD_START_POSITIONS if compiled_can_search(self.pg) else 0

    def search_refusal(self, *, algorithm: str, race_patterns: bool, positional_rules: bool) -> str | None:
        if race_patterns:
            return ("--race-patterns applies to Breakthrough-like BDDL games; a .pg game is searched with the positional "
                    "rules: drop --race-patterns")
        return None

    def search(self, *, algorithm: str, max_positions: int, race_patterns: bool = False, positional_rules: bool = False,
               parallel=None, core: str | None = None, table_mb: float | None = None, keep: bool = False):
        """The positional solver's minimax or df-pn on its rules (each by the compiled core where
        it is built and takes the game, unless `core` is "python": the same search, the same
        verdict, first move and positions, docs/engines-core.md), or PPN²."""
        from bddl.engines.positional import solve
        from bddl.engines.positional_pns import solve_pns

        from ..solving.search.core import compiled_can_search, search_full, search_pg_pns
        from ..solving.search.outcome import SearchOutcome, pairing_note

        if algorithm == "minimax" and core != "python" and compiled_can_search(self.pg):
            found = search_full(self.pg, max_positions=max_positions, table_mb=table_mb, keep=keep)
        elif algorithm == "pns" and core != "python" and compiled_can_search(self.pg):
            found = search_pg_pns(self.pg, max_positions=max_positions, table_mb=table_mb)
        elif algorithm == "ppn2":
            from ..solving.search.ppn2 import search_ppn2

            found = search_ppn2(self.ppn2_recipe(core=core), parallel, max_positions)
        else:
            found = (solve_pns if algorithm == "pns" else solve)(self.pg, max_positions=max_positions)
        first = None if found.first_move is None else play_of_cell(self, found.first_move)
        notes = () if found.black_wins or found.positions else pairing_note(self.pg)
        return SearchOutcome(found.black_wins, self.depth, first, found.positions, found.seconds, True, False, notes,
                             getattr(found, "engine", None))

    core_algorithms: ClassVar[tuple[str, ...]] = ("minimax", "pns", "ppn2")  # ppn2: its search leaf jobs

    def core_refusal(self, *, positional_rules: bool = False) -> str | None:
        from bddl.engines import compiled

        return compiled.unsupported(self.pg)

    def knowledge_refusal(self, *, knowledge: str, algorithm: str) -> str | None:
        if algorithm != "minimax":
            return f"--knowledge {knowledge} is the plain minimax: it needs --algorithm minimax"
        return None

    def search_plain(self, *, core: str, knowledge: str, max_positions: int, table_mb: float | None):
        from ..solving.search.core import search_plain
        from ..solving.search.outcome import SearchOutcome

        found = search_plain(self.pg, core=core, knowledge=knowledge, max_positions=max_positions, table_mb=table_mb)
        first = None if found.first_move is None else play_of_cell(self, found.first_move)
        return SearchOutcome(found.black_wins, self.depth, first, found.positions, found.seconds, True, False)

    def ppn2_recipe(self, *, race_patterns: bool = False, positional_rules: bool = False, core: str | None = None):
        return PgRecipe(self.pg, "python" if core == "python" else "compiled")

    # -- certificates ------------------------------------------------------------------------------

    def certificate_oracle(self, max_bytes: int, searched=None, decide: bool = True, core: str | None = None):
        from ..certificates.oracles import positional_oracle

        return positional_oracle(self, max_bytes, searched, core)

    def certificate_help(self, claim: str, pairings: bool, carriers: bool, core: str | None = None) -> CertificateHelp:
        """The strategist's moves ordered by how many cells Black still needs after them (fewest
        first for Black, most for White), the test of positions where Black's goal is out of
        reach, and of the other side's moves on cells no goal of its own can use any more
        (`check.black_need`, `check.need_through`: the checker's own definitions, so that what
        the producer cuts the checker accepts); White's pairings where a refutation may end in
        one; the board's symmetries; swap edges (`carriers`)."""
        from ..certificates.check import black_moves_left, black_need, black_set_masks, moves_left, need_through
        from ..certificates.produce import BLACK_WINS, NO_BLACK_WIN

        game, rules = self.pg, self.rules
        other = WHITE if claim == BLACK_WINS else BLACK

        def dead(position, cell: int) -> bool:
            return need_through(game, position, cell.bit_length() - 1, other) > moves_left(rules, position.ply, other)

        pairing, has_pairing = self._pairings(core) if claim == NO_BLACK_WIN and pairings else (None, None)
        masks = black_set_masks(game)  # read once: the builder asks about every position it makes
        if game.graph is None:
            need_after: Callable[[Play], int] = NeedAfterClaim(masks, len(game.cells) + 1)
        else:  # Hex: a shortest path, not sets
            need_after = lambda play: black_need(game, play.after)  # noqa: E731
        if claim == BLACK_WINS:
            preference, out_of_reach = need_after, None
        else:
            preference = lambda play: -need_after(play)  # noqa: E731
            out_of_reach = lambda p: black_need(game, p, masks) > black_moves_left(rules, p.ply)  # noqa: E731
        return CertificateHelp(preference, out_of_reach, dead, pairing, has_pairing, self.symmetries(), carriers)

    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board symmetries the positional solver uses (`bddl.pg.geometry.symmetries`),
        without the identity, and only those that keep the first-move set."""
        from bddl.pg.geometry import symmetries

        first = self.pg.first_moves
        return tuple(p for p in symmetries(self.pg)[1:] if first is None or frozenset(p[i] for i in first) == first)

    def _pairings(self, core: str | None = None):
        """White's pairing strategy from a position, where it has one (`bddl.pg.pairing`), within
        the depth: it blocks every winning set (on Hex, every path) that Black could still complete
        in its moves left; and whether it has one, which the chooser asks of every White reply
        (cheaper: no SAT call where the quick search meets a pairing; that search in the compiled
        core where `core_takes` the game: the same answers).  (None, None) where pairings do not
        apply."""
        from bddl.pg.pairing import PairingFinder

        from ..certificates.oracles import core_takes

        fits = None
        if core_takes(self, core, positional=True):
            from bddl.engines.compiled import pairs_fit

            fits = partial(pairs_fit, cells=len(self.pg.cells))
        # the sets Black can complete in its moves left; Hex: short paths
        finder = PairingFinder(self.pg, within_depth=True, fits=fits)
        if not finder.usable:
            return None, None

        @lru_cache(maxsize=1 << 16)  # the builder asks about the nodes it makes
        def pairing(position):
            return finder.find(position.black, position.white, position.ply)

        @lru_cache(maxsize=1 << 16)  # the chooser and the oracle ask about the same positions
        def has_pairing(position) -> bool:
            return finder.exists(position.black, position.white, position.ply)

        return pairing, has_pairing

    def checker_game(self):
        return self.pg

    # -- what the commands say and show ---------------------------------------------------------------

    def lint(self) -> list:
        return []

    def example_move(self) -> str:
        plays = self.rules.plays(self.rules.initial)
        return plays[0].text if plays else self.pg.cells[0]

    def first_moves(self) -> frozenset[int] | None:
        return self.pg.first_moves

    def goal_sheet(self, sheet, board) -> None:
        from ..pictures.sheet import pg_goals

        pg_goals(sheet, self, board)

    def connection_goal(self) -> bool:
        return self.pg.graph is not None

    def export_refusal(self) -> str | None:
        return f"{self.paths[0]} is a positional game already: export writes a BDDL model as one"

    def as_positional_game(self, depth: int | None = None):
        raise AssertionError(self.export_refusal())


# -- the QBF route's first-move policy ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Attempt:
    black_wins: bool | None
    size: Any
    black_first: bool
    reason: str | None = None
    note: str | None = None
    move: Play | None = None  # Black's first claim, as the rules play it
    checked: bool = False
    answered_by: str | None = None


def _result(attempt: _Attempt, game, solver: str, encoding: str, preprocess: str, clock, depth: int):
    from ..solving.results import SolveResult

    move = attempt.move
    source = None if move is None else "checked" if attempt.checked else "unchecked"
    return SolveResult(
        attempt.black_wins, game.depth, solver, clock.seconds(), attempt.size, move, attempt.reason,
        encoding, preprocess, attempt.note, attempt.black_first, source, attempt.answered_by, depth,
    )


def _solve_once(model: PgModel, encoding: str, solver: str, preprocess: str, clock, stop=None) -> _Attempt:
    """One formula, one solver run (after Bloqqer, if asked); QDIMACS for every program."""
    from ..solving.qbf.route import run
    from ..solving.qbf.solver_programs import members
    from ..solving.results import MoveCheckError

    game = model.pg
    formula = model.compile(encoding)
    compiled: Any = formula.compiled
    black_first = compiled.first_side == BLACK
    options = {program: ENCODING_SOLVER_OPTIONS.get((encoding, program), PG_SOLVER_OPTIONS.get(program, ()))
               for program in members(solver)}
    ran = run(formula, program=solver, preprocess=preprocess, clock=clock, stop=stop, qcir=False, options=options)
    verdict = ran.verdict
    note = verdict.preprocess_note

    def finish(black_wins, reason=None, move=None, checked=False) -> _Attempt:
        return _Attempt(black_wins, ran.size, black_first, reason, note, move, checked, verdict.answered_by)

    if verdict.black_wins is None:
        return finish(None, verdict.reason)
    if verdict.preprocessed:  # its assignment belongs to the preprocessed formula: no move read
        return finish(verdict.black_wins, None if not verdict.black_wins or not black_first else "no first move after preprocessing")
    if not verdict.black_wins or not black_first:
        return finish(verdict.black_wins, None if not verdict.black_wins else "White moves first: Black has no first move")
    if not verdict.model:
        return finish(True, f"{verdict.answered_by} prints no assignment: no first move")
    play = ran.move()  # the formula's own decoding (`compile`), the claim as the rules play it
    if play is None:
        raise MoveCheckError(f"{verdict.answered_by} says Black wins, but its first move is no legal first claim")
    cell = play.move
    assert isinstance(cell, int)  # a positional game's rules name a claim by its cell
    budget = check_budget(clock.deadline)
    checked = check_first_move(game, cell, budget)
    if checked is False:
        raise MoveCheckError(f"{verdict.answered_by} says Black wins, but the explicit solver refutes its first move {game.cells[cell]}")
    reason = None if checked else f"first move not checked: the explicit solver needs more than {budget} positions"
    return finish(True, reason, play, bool(checked))


def check_budget(deadline: float | None) -> int:
    """Positions the first-move check may expand before the deadline."""
    if deadline is None:
        return CHECK_POSITIONS
    return max(0, min(CHECK_POSITIONS, int((deadline - time.perf_counter()) / 2 * CHECK_RATE)))


def check_first_move(game, cell: int, max_positions: int = CHECK_POSITIONS) -> bool | None:
    """Does Black's first claim of `cell` keep the game won (None: not decided in the budget)?

    Asked of the explicit solver as a game of its own: the claim becomes a
    Black stone before play and the first time point is gone (a completed
    set then counts as won before play)."""
    from bddl.engines.positional import SearchBudgetExceeded, solve

    if game.first_moves is not None and cell not in game.first_moves:
        return False
    if cell in game.black_initials | game.white_initials or not game.turns or game.turns[0] != BLACK:
        return False
    after = dataclasses.replace(game, times=game.times[1:], turns=game.turns[1:], black_initials=game.black_initials | {cell},
                                first_moves=None)
    try:
        return solve(after, max_positions=max_positions).black_wins
    except SearchBudgetExceeded:
        return None


# -- PPN²'s recipe ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PgRecipe:
    """A positional game as PPN²'s workers rebuild it."""

    game: Any  # a PositionalGame
    # the search leaf jobs' engine: "compiled" (the core's positional solver, where it is built
    # and takes the game; the Python one otherwise) or "python" (`--core python`)
    core: str = "compiled"
    # the core's leaf searcher's table on each worker (`ppn2.leaf_table_mb`: its share of
    # --max-memory; None: the core's default)
    table_mb: float | None = None

    def build(self):
        from bddl.engines.pn_job import pg_setup

        from ..solving.search.ppn2 import with_capacity

        return with_capacity(pg_setup(self.game)[0])

    def leaf_search(self):
        """The engine of a worker's search leaf jobs: the core's positional solver kept between
        jobs (`bddl.engines.compiled.leaf`: the same verdicts and positions) unless `core` is
        "python" or the core cannot take the game, then the Python one."""
        from bddl.engines import compiled
        from bddl.engines.leaf_search import pg_leaf_search

        if self.core != "python" and compiled.available() and compiled.unsupported(self.game) is None:
            from bddl.engines.compiled.leaf import CorePgLeafSearch

            return CorePgLeafSearch(self.game, compiled.DEFAULT_TABLE_MB if self.table_mb is None else self.table_mb)
        return pg_leaf_search(self.game)

    def game_model(self) -> PgModel:
        return pg_model(self.game)

    def search(self, client, **options):
        """`solve_pns`'s question and answer, by PPN² on the client's cluster: (result, statistics)."""
        from bddl.engines.pn_job import pg_root, pg_setup
        from bddl.engines.positional import PgSearchResult

        from ..solving.search.ppn2 import JobFailed, run_ppn2

        start = time.perf_counter()
        game = self.game
        root = pg_root(game)
        if isinstance(root, bool):
            return PgSearchResult(root, game.depth, None, 0, time.perf_counter() - start, 1), None
        _, rules = pg_setup(game)
        tree, stats = run_ppn2(client, self, root, **options)
        wins = bool(tree.black_wins)
        first_move = None
        if wins and root[0]:
            board = tree.winning_successor()
            b, w = root[1], root[2]
            for claim in rules.claims(b, w, 0):
                after = (b | 1 << claim, w)
                if board is not None and (after == board or rules.canonical(*after) == board):
                    first_move = claim
                    break
            else:
                raise JobFailed(f"Black wins but no first claim reaches the proved successor {board}")
        return PgSearchResult(wins, game.depth, first_move, tree.positions, time.perf_counter() - start, len(rules.perms)), stats


class NeedAfterClaim:
    """`check.black_need` after a play, from the position before it (a game with winning sets):
    the builder orders every move of a node by it, and a claim changes only the sets through its
    cell.  The live sets' counts are sorted once per position (the last one asked is kept), so a
    node's moves cost a few steps each instead of a pass over every set.
    tests/compiler/certificates/test_need_after_claim.py holds it to `black_need`."""

    def __init__(self, masks: tuple[int, ...], none: int):
        self.masks = masks  # Black's winning sets (`check.black_set_masks`)
        self.none = none  # the need where no set is left (`black_need`'s)
        self._before: tuple[int, int] | None = None
        self._by_count: list[tuple[int, int]] = []  # (open cells, set) of the live sets, fewest first

    def __call__(self, play: Play) -> int:
        bit = 1 << play.move  # type: ignore[operator]  # a positional game's move is its cell
        black, white = play.after.black, play.after.white
        before = (black & ~bit, white) if play.side == BLACK else (black, white & ~bit)
        if before != self._before:
            self._before = before
            self._by_count = sorted(((s & ~before[0]).bit_count(), s) for s in self.masks if not s & before[1])
        if play.side == BLACK:  # the sets through the cell need one cell fewer
            best = self.none
            for count, s in self._by_count:
                if count - 1 >= best:
                    break  # no later set, needing as many or more, does better
                best = min(best, count - 1 if s & bit else count)
            return best
        return next((count for count, s in self._by_count if not s & bit), self.none)  # White blocks those sets

