"""A BDDL game (a domain and a problem) behind the one `GameModel` interface.

Everything the routes, the certificates and the commands need that BDDL answers its own way is
here: the problem at another depth or from a position, the lifted/explicit/corrective encodings
and the first move decoded from an assignment, the QBF route's first-move policy (read from the
solver's assignment, or *proved* by solving the position after it), the explicit engines that
suit the game (the minimax, df-pn with race patterns, the positional rules where the model is a
positional game), the certificate's engine, and PPN²'s recipe.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from bddl.rules import BLACK, WHITE, Play, Position, bddl_rules

from ..game_model import HEAD_START_POSITIONS, CertificateHelp, Exported, Formula, GameModel, LanguageWords, plies, version

if TYPE_CHECKING:
    from bddl.loader import Model


def problem_at(problem, state, plies_left: int, side_to_move: str):
    """A BDDL problem going on from `state`: the same board and goals, `state`
    as the initial position, `plies_left` as the depth, `side_to_move` first."""
    from bddl.ast import Absolute, Atom
    from bddl.game import OPEN

    width = problem.width
    init = []
    for index in range(width * problem.height):
        x, y = index % width + 1, index // width + 1
        bit = 1 << index
        value = BLACK if state.black & bit else WHITE if state.white & bit else OPEN
        if value != OPEN:
            init.append(Atom(value, Absolute(x), Absolute(y)))
    return dataclasses.replace(problem, init=tuple(init), depth=plies_left, black_first=side_to_move == BLACK)


def play_of_move(model: GameModel, move) -> Play:
    """A BDDL engine move from the initial position as a `Play` of the rules."""
    from bddl.notation import describe_move

    game = model.rules.game  # type: ignore[attr-defined]
    return Play(move.side, describe_move(game, game.initial, move), Position(move.state.black, move.state.white, 1), move)


def bddl_model(domain, problem, paths: tuple[str, ...] = ()) -> BddlModel:
    """A model of a domain and a problem already read (PPN²'s workers, the tests)."""
    from bddl.game import Game
    from bddl.loader import Model

    model = Model(domain, problem, (), *(paths or ("", "")))
    return BddlModel(paths, bddl_rules(Game(domain, problem)), bddl=model)


@dataclass(frozen=True)
class BddlModel(GameModel):
    """A validated domain and problem (`bddl.loader.Model`), `depth` the one asked about."""

    bddl: Model = field(kw_only=True)

    language = "bddl"
    words = LanguageWords(
        model="BDDL model",
        white_first="White moves first (#blackturn second)",
        candidates_note=("Black has no goals: it can only win by leaving White without a move, so only depths "
                         "ending on White's turn can be critical: "),
        move_form="ACTION X Y",
        move_placeholder="'ACTION X Y'",
    )

    @classmethod
    def open(cls, domain_path: str, problem_path: str, *, depth, default_depth, limits, initial_state) -> BddlModel:
        from bddl.game import Game
        from bddl.loader import load_model

        model = load_model(domain_path, problem_path, depth=depth, default_depth=default_depth, limits=limits,
                           initial_state=initial_state)
        return cls((domain_path, problem_path), bddl_rules(Game(model.domain, model.problem)), model.warnings, bddl=model)

    def _with_problem(self, problem) -> BddlModel:
        from bddl.game import Game

        model = dataclasses.replace(self.bddl, problem=problem)
        return dataclasses.replace(self, rules=bddl_rules(Game(model.domain, problem)), bddl=model)

    def with_paths(self, paths: tuple[str, ...], warnings) -> BddlModel:
        bddl = dataclasses.replace(self.bddl, domain_path=paths[0], problem_path=paths[1], warnings=warnings)
        return dataclasses.replace(self, paths=paths, bddl=bddl, warnings=warnings)

    # -- the game at another depth or from a position ------------------------------------------

    def at_depth(self, depth: int) -> BddlModel:
        if depth == self.depth:
            return self
        return self._with_problem(dataclasses.replace(self.bddl.problem, depth=depth))

    def at_position(self, position: Position, plies: int | None = None) -> BddlModel:
        from bddl.game import State

        left = self.depth - position.ply if plies is None else plies
        return self._with_problem(problem_at(self.bddl.problem, State(position.black, position.white), left,
                                             self.rules.to_move(position.ply)))

    def black_has_goal(self) -> bool:
        return bool(self.bddl.problem.black_goals)

    @property
    def turn_period(self) -> int:
        return 2

    # -- encodings ----------------------------------------------------------------------------

    def own_encodings(self) -> list[str]:
        from ..encodings import bddl_encoding_names

        return bddl_encoding_names()

    def default_encoding(self) -> str:
        from ..encodings import DEFAULT_ENCODING

        return DEFAULT_ENCODING

    def solve_encoding(self) -> str:
        from ..encodings import SOLVE_ENCODING

        return SOLVE_ENCODING

    def checked_encoding(self, encoding: str) -> str:
        from ..encodings import AUTO_ENCODING

        return encoding if encoding == AUTO_ENCODING else self.check_encoding(encoding)

    def misfit(self, encoding: str) -> str | None:
        if encoding != "corrective":
            return None
        from ..encodings.corrective import NotClaiming, claiming_game
        from ..encodings.memory_estimates import guard_encoding

        # reading the game as a claiming game grounds every goal: on a board past the memory
        # limit, that is refused (MemoryBudgetExceeded, exit 3) before the grounding starts
        guard_encoding("corrective", self.bddl.domain, self.bddl.problem, self.depth)
        try:
            claiming_game(self.bddl.domain, self.bddl.problem)
        except NotClaiming as exc:
            return exc.diagnostics[0].message
        return None

    def compile(self, encoding: str) -> Formula:
        from circuits import numbering, to_qdimacs

        from ..encodings import encode, encoding_name
        from ..encodings.decoding import engine_move

        bddl = self.bddl
        problem, depth = bddl.problem, self.depth
        compiled = encode(bddl.domain, problem, depth, encoding)
        first = "Black moves first" if problem.black_first else "White moves first"
        header = (
            f"bddlc {version()}, encoding: {encoding_name(compiled, encoding)}",
            f"domain: {bddl.domain_path}",
            f"problem: {bddl.problem_path}",
            f"board: {problem.width}x{problem.height}, depth: {depth}, {first}",
            f"true iff Black has a winning strategy of at most {plies(depth)}",
        )

        def first_move(value: Callable[[int], bool]) -> Play | None:
            if not problem.black_first or not compiled.steps:
                return None
            numbers = numbering(compiled.circuit)
            decoded = compiled.decode_move(compiled.steps[0], lambda var: value(numbers.lit(var)))
            game = self.rules.game  # type: ignore[attr-defined]
            move = None if decoded is None else engine_move(game, game.initial, decoded)
            return None if move is None else play_of_move(self, move)

        return Formula(encoding_name(compiled, encoding), header, compiled.circuit, compiled,
                       lambda **tseitin: to_qdimacs(compiled.circuit, **tseitin), first_move)

    # -- the QBF route ------------------------------------------------------------------------------

    def solve_qbf(self, *, encoding: str | None = None, solver: str = "default", preprocess: str = "none",
                  timeout: float | None = None, stop: Callable[[], bool] | None = None):
        """The QBF route; Black's first move read from the solver's assignment where the solver
        assigned every move bit, else proved: the candidates (the solver's first) are applied and
        the position after each solved with one ply fewer, White to move."""
        from ..encodings import SOLVE_ENCODING
        from ..solving.qbf.route import Clock, check_options

        if encoding is not None and encoding != SOLVE_ENCODING:
            encoding = self.check_encoding(encoding)
        check_options(solver, preprocess)
        return _solve(self, encoding or SOLVE_ENCODING, solver, preprocess, Clock.started(timeout), stop)

    # -- the explicit engines ------------------------------------------------------------------------

    def search_plan(self) -> tuple[str, dict]:
        return self._plan

    @functools.cached_property
    def _plan(self) -> tuple[str, dict]:
        """The plan, worked out once per model: a positional model is read as a `.pg` game to know
        whether the rules fit (milliseconds), and `solve` asks for the plan twice (the head start, the race)."""
        from bddl.engines.race import race_knowledge

        from ..solving.search.positional_rules import not_searchable

        if race_knowledge(self.rules.game) is not None:  # type: ignore[attr-defined]
            return "search: df-pn with race patterns", {"algorithm": "pns", "race_patterns": True}
        if not_searchable(self.bddl.domain, self.bddl.problem, self.depth) is None:
            return "search: minimax with the positional rules", {"algorithm": "minimax", "positional_rules": True}
        return "search: minimax", {"algorithm": "minimax"}

    def head_start_positions(self) -> int:
        """The compiled core's head start (`HEAD_START_POSITIONS`) where the plan's engine runs in
        the core: the minimax, the positional rules' minimax, and df-pn with the race patterns."""
        from bddl.engines import compiled

        if not compiled.available() or self.core_refusal() is not None:
            return 0
        algorithm = self.search_plan()[1]["algorithm"]
        if algorithm not in self.core_algorithms:
            return 0
        # df-pn expands a sixth as many positions a second as the minimax (its numbers, its leaf
        # searches, the race patterns: 350,000 on Breakthrough 4x5), so its head start is as long
        return HEAD_START_POSITIONS // 6 if algorithm == "pns" else HEAD_START_POSITIONS

    def search_refusal(self, *, algorithm: str, race_patterns: bool, positional_rules: bool) -> str | None:
        if race_patterns and algorithm not in ("pns", "ppn2"):
            return "--race-patterns needs --algorithm pns or ppn2"
        if race_patterns and positional_rules:
            return "--race-patterns and --positional-rules do not go together"
        return None

    def search(self, *, algorithm: str, max_positions: int, race_patterns: bool = False, positional_rules: bool = False,
               parallel=None, core: str | None = None, table_mb: float | None = None, keep: bool = False):
        from bddl.engines.minimax import search
        from bddl.engines.pns import search_pns

        from ..solving.search.core import bddl_compiled_can_search, search_bddl, search_bddl_pns
        from ..solving.search.outcome import SearchOutcome, pairing_note
        from ..solving.search.positional_rules import RulesDoNotFit, positional_reading, search_positional

        game = self.rules.game  # type: ignore[attr-defined]
        depth = self.depth
        notes: list[str] = []
        knowledge = None
        if race_patterns:
            from bddl.engines.race import race_knowledge

            knowledge = race_knowledge(game)
            if knowledge is None:
                notes.append("not a Breakthrough-like game; searching without race patterns")
        result = None
        if positional_rules:
            try:
                if algorithm == "ppn2":
                    from ..solving.search.ppn2 import search_ppn2

                    recipe = self.ppn2_recipe(positional_rules=True, core=core)
                    result = _bddl_result(game, search_ppn2(recipe, parallel, max_positions), depth)
                else:
                    result = search_positional(game, depth, algorithm, max_positions, core=core, table_mb=table_mb)
            except RulesDoNotFit as exc:
                notes.append(f"{exc}; searching without the positional rules")
        by_rules = result is not None
        if result is not None and not result.black_wins and not result.positions:
            pg = positional_reading(game, depth)
            if pg is not None:
                notes.extend(pairing_note(pg))
        if result is None and algorithm == "ppn2":
            from ..solving.search.ppn2 import search_ppn2

            result = search_ppn2(self.ppn2_recipe(race_patterns=knowledge is not None, core=core), parallel, max_positions)
        elif result is None and algorithm == "pns" and core != "python" and bddl_compiled_can_search(game, depth):
            result = search_bddl_pns(game, depth, max_positions=max_positions, table_mb=table_mb, race_patterns=knowledge is not None)
        elif result is None and algorithm == "pns":
            result = search_pns(game, depth, max_positions=max_positions, knowledge=knowledge)
        elif result is None and core != "python" and bddl_compiled_can_search(game, depth):
            result = search_bddl(game, depth, max_positions=max_positions, table_mb=table_mb, keep=keep)
        elif result is None:
            result = search(game, depth, max_positions=max_positions)
        first = None if result.first_move is None else play_of_move(self, result.first_move)
        return SearchOutcome(result.black_wins, depth, first, result.positions, result.seconds, by_rules, knowledge is not None,
                             tuple(notes), result.engine, " (by the positional rules)" if by_rules else "")

    core_algorithms: ClassVar[tuple[str, ...]] = ("minimax", "pns", "ppn2")  # ppn2: its search leaf jobs

    def core_refusal(self, *, positional_rules: bool = False) -> str | None:
        from bddl.engines import compiled

        return compiled.bddl_unsupported(self.rules.game, self.depth)  # type: ignore[attr-defined]

    def knowledge_refusal(self, *, knowledge: str, algorithm: str) -> str | None:
        return f"--knowledge {knowledge} applies to .pg games (a BDDL model's minimax has no knowledge to leave out)"

    def search_plain(self, *, core: str, knowledge: str, max_positions: int, table_mb: float | None):
        raise AssertionError("knowledge_refusal refuses the plain minimax on a BDDL model")

    def ppn2_recipe(self, *, race_patterns: bool = False, positional_rules: bool = False, core: str | None = None):
        core = "python" if core == "python" else "compiled"
        if positional_rules:
            from ..solving.search.positional_rules import RulesDoNotFit, reading

            pg = reading(self.bddl.domain, self.bddl.problem, self.depth)
            if isinstance(pg, str):
                raise RulesDoNotFit(pg)
            from .pg_model import PgRecipe

            return PgRecipe(pg, core)
        return BddlRecipe(self.bddl.domain, self.bddl.problem, race_patterns, self.depth, core)

    # -- certificates ------------------------------------------------------------------------------

    def certificate_oracle(self, max_bytes: int, searched=None, decide: bool = True, core: str | None = None):
        """The search route's engine (or the search that decided the game), the initial position
        decided first when `decide`: a Python minimax whose table outgrows its share of the memory
        there gives way to df-pn, whose table is bounded (`oracles.fallback`); the compiled core's
        (where `oracles.core_takes`) is bounded already, replacing entries past its share."""
        from bddl.budget import MemoryBudgetExceeded

        from ..certificates.oracles import bddl_oracle, core_takes, fallback

        oracle = bddl_oracle(self, max_bytes, searched, core)
        if not decide or searched is not None or core_takes(self, core):
            return oracle
        try:
            oracle.black_wins(self.rules.initial)
        except MemoryBudgetExceeded:
            return fallback(self, max_bytes)
        return oracle

    def certificate_help(self, claim: str, pairings: bool, carriers: bool, core: str | None = None) -> CertificateHelp:
        return CertificateHelp()

    def checker_game(self):
        return None

    # -- what the commands say and show ---------------------------------------------------------------

    def lint(self) -> list:
        from ..analysis.lint import lint

        return lint(self.bddl.domain, self.bddl.problem)

    def example_move(self) -> str:
        """The first legal White move now, or one position later; a made-up one only where White has none."""
        from bddl.game import BLACK as B, WHITE as W
        from bddl.notation import move_name

        game, state = self.rules.game, self.rules.game.initial  # type: ignore[attr-defined]
        moves = game.moves(state, W)
        if not moves:
            later = game.moves(state, B)
            moves = game.moves(later[0].state, W) if later else []
        if moves:
            return move_name(moves[0])
        action = game.domain.white_actions[0].name if game.domain.white_actions else "ACTION"
        return f"{action} 1 1"

    def first_moves(self) -> frozenset[int] | None:
        return None

    def goal_sheet(self, sheet, board) -> None:
        from ..pictures.sheet import bddl_goals

        bddl_goals(sheet, self)

    def connection_goal(self) -> bool:
        return False

    def export_refusal(self) -> str | None:
        return None

    def as_positional_game(self, depth: int | None = None) -> Exported:
        from ..encodings.pg_export import difference_warning, positional_game

        bddl = self.bddl
        game = positional_game(bddl.domain, bddl.problem, depth)
        return Exported(game, difference_warning(game, bddl.problem),
                        (f"exported by bddlc from {bddl.domain_path} and {bddl.problem_path}",))


# -- the QBF route's first-move policy ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Retry:
    """How to solve again while proving a first move: as the caller asked, with the time left."""

    solver: str
    encoding: str
    preprocess: str
    clock: Any
    stop: Callable[[], bool] | None = None


def _solve(model: BddlModel, encoding: str, solver: str, preprocess: str, clock, stop):
    from ..solving.qbf.route import run
    from ..solving.qbf.solver_programs import DEFAULT_SOLVER, default_solver
    from ..solving.results import SolveResult

    formula = model.compile(encoding)
    program = default_solver(formula.encoding) if solver == DEFAULT_SOLVER else solver
    ran = run(formula, program=program, preprocess=preprocess, clock=clock, stop=stop)
    verdict = ran.verdict
    move, reason, source = None, verdict.reason, None
    if verdict.black_wins and not model.black_first:
        reason = "White moves first: Black has no first move"
    elif verdict.black_wins:
        # a follow-up solve asks for what this one was asked for ("default", "auto"), not what they resolved to
        move, reason, source = _first_move(model, ran, program, _Retry(solver, encoding, preprocess, clock, stop))
    return SolveResult(
        verdict.black_wins, depth=model.depth, solver=program, seconds=clock.seconds(), size=ran.size, first_move=move,
        reason=reason, encoding=formula.encoding, preprocess=preprocess, preprocess_note=verdict.preprocess_note,
        black_first=model.black_first, move_source=source, answered_by=verdict.answered_by, depth_solved=model.depth,
    )


def _first_move(model: BddlModel, ran, program: str, retry: _Retry):
    """Black's first move, checked by the engine: (play, reason there is none, "solver" or "proved")."""
    from ..solving.results import MoveCheckError

    proposed, assigned = ran.assigned_move()
    if assigned:
        if proposed is None:
            raise MoveCheckError(f"{program} says Black wins, but its first move (its bits name no legal move) "
                                 "is not legal in the initial position")
        return proposed, None, "solver"
    move, reason = first_winning_move(model, None if proposed is None else proposed.move, retry)
    return (None if move is None else play_of_move(model, move)), reason, "proved" if move else None


def first_winning_move(model: BddlModel, proposed, retry: _Retry):
    """A first move for Black proved winning by solving the position after it: (move, None) or
    (None, reason).  Used when the solver's assignment cannot be trusted as a model of the
    original formula (QFun prints none; after Bloqqer it is the preprocessed formula's)."""
    from ..solving.qbf.verdicts import remaining, time_left
    from ..solving.results import MoveCheckError
    from ..solving.qbf.route import Clock

    game = model.rules.game  # type: ignore[attr-defined]
    candidates = _distinct_moves(game, game.initial, BLACK)
    if proposed is not None:
        candidates = [proposed] + [m for m in candidates if m.state != proposed.state]
    clock = retry.clock
    for move in candidates:
        if game.won(move.state, BLACK):
            return move, None
        if model.depth < 2:
            continue
        if remaining(clock.deadline) <= 0:
            return None, f"{clock.limit} (reached while proving a first move)"
        after = model.at_position(Position(move.state.black, move.state.white, 1), model.depth - 1)
        solved = _solve(after, retry.encoding, retry.solver, retry.preprocess, Clock.started(time_left(clock.deadline)), retry.stop)
        if solved.black_wins:
            return move, None
        if solved.black_wins is None:
            reason = solved.reason or "no verdict"
            if reason.startswith("time limit"):
                reason = f"{clock.limit} (reached while proving a first move)"
            return None, reason
    raise MoveCheckError(f"{retry.solver} says Black wins, but no first move of Black's could be proved winning")


def _distinct_moves(game, state, side: str) -> list:
    seen, moves = set(), []
    for move in game.moves(state, side):
        if move.state not in seen:
            seen.add(move.state)
            moves.append(move)
    return moves


def _bddl_result(game, found, depth: int):
    """A PPN² answer on the model read as a positional game, its first claim as the BDDL move."""
    from bddl.engines.minimax import SearchResult

    from ..solving.search.positional_rules import bddl_move

    first_move = bddl_move(game, found.first_move) if found.black_wins and game.black_first else None
    return SearchResult(found.black_wins, depth, first_move, found.positions, found.seconds)


# -- PPN²'s recipe ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BddlRecipe:
    """A BDDL game as PPN²'s workers rebuild it (the model, not its compiled rules, travels)."""

    domain: Any
    problem: Any
    race_patterns: bool
    depth: int | None = None  # the search's depth (None: the problem's)
    # the search leaf jobs' engine: "compiled" (the core's, where it is built and takes the game;
    # the Python minimax otherwise) or "python" (`--core python`)
    core: str = "compiled"
    # the core's leaf searcher's table on each worker (`ppn2.leaf_table_mb`: its share of
    # --max-memory; None: the core's default)
    table_mb: float | None = None

    def build(self):
        from bddl.engines.pn_job import bddl_setup

        from ..solving.search.ppn2 import with_capacity

        return with_capacity(bddl_setup(*self._game_and_knowledge()))

    def leaf_search(self):
        """The engine of a worker's search leaf jobs (`--leaf-jobs search`): the compiled core's
        minimax kept between jobs (`bddl.engines.compiled.leaf`: the same verdicts, about 30
        times as many positions a second) unless `core` is "python" or the core cannot take the
        game, then the Python one."""
        from bddl.engines import compiled
        from bddl.engines.leaf_search import bddl_leaf_search

        game, knowledge = self._game_and_knowledge()
        if self.core != "python" and compiled.available() and compiled.bddl_unsupported(game) is None:
            from bddl.engines.compiled.leaf import CoreLeafSearch

            table_mb = compiled.DEFAULT_TABLE_MB if self.table_mb is None else self.table_mb
            return CoreLeafSearch(game, race_patterns=knowledge is not None, table_mb=table_mb)
        return bddl_leaf_search(game, knowledge)

    def _game_and_knowledge(self):
        """The game, and its race patterns where they are asked for."""
        from bddl.engines.race import race_knowledge
        from bddl.game import Game

        game = Game(self.domain, self.problem)
        return game, race_knowledge(game) if self.race_patterns else None

    def game_model(self) -> BddlModel:
        """The root's `GameModel` (what a verdict job compiles a leaf from)."""
        problem = self.problem if self.depth is None else dataclasses.replace(self.problem, depth=self.depth)
        return bddl_model(self.domain, problem)

    def search(self, client, **options):
        """`search_pns`'s question and answer, by PPN² on the client's cluster: (SearchResult, statistics)."""
        from bddl.engines.minimax import SearchResult
        from bddl.engines.pn_job import bddl_root
        from bddl.engines.pn_tree import TreeStatistics
        from bddl.game import Game

        from ..solving.search.ppn2 import JobFailed, Ppn2Statistics, run_ppn2

        start = time.perf_counter()
        depth = self.problem.depth if self.depth is None else self.depth
        game = Game(self.domain, self.problem)
        if depth < 1:
            return (SearchResult(False, depth, None, 0, time.perf_counter() - start),
                    Ppn2Statistics(TreeStatistics(0, 0, 0, 0, 0, 0), 0, 0.0))
        tree, stats = run_ppn2(client, self, bddl_root(game, depth), **options)
        wins = bool(tree.black_wins)
        first_move = None
        if wins and game.black_first:
            board = tree.winning_successor()
            for move in game.moves(game.initial, BLACK):
                if board is not None and (move.state.black, move.state.white) == board:
                    first_move = move
                    break
            else:
                raise JobFailed(f"Black wins but no first move reaches the proved successor {board}")
        return SearchResult(wins, depth, first_move, tree.positions, time.perf_counter() - start), stats

