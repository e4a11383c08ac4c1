"""One game, whichever language it is written in: what every command opens.

`open_model` is the only place that decides a file's language: a positional
game stands alone; anything else is a BDDL domain followed by its problem.
The file's sections decide (`file_kind`), its suffix only where they do not:
public benchmark sets name BDDL Hex problems `*.pg`, and a positional game
may be saved under any name.  The `GameModel` it returns carries the game's rules
(`bddl.rules.GameRules`: moves, turns, goals, drawing, move notation, the
same for both languages) beside the language's own parsed form, which the
encodings and the engines of that language need.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

from bddl.pg.reader import SECTIONS as PG_READER_SECTIONS
from bddl.rules import BLACK, WHITE, GameRules, Play, Position, bddl_rules, pg_rules
from bddl.validate import Limits

if TYPE_CHECKING:
    from bddl.errors import Diagnostic
    from bddl.loader import Model
    from bddl.pg.game import PositionalGame
    from circuits import Circuit, Qdimacs

BDDL, PG = "bddl", "pg"
PG_SUFFIX = ".pg"


class ModelPathsError(ValueError):
    """The paths name no game (a usage error, exit 2): the message says what to give instead."""


class EncodingDoesNotFit(ValueError):
    """The encoding asked for cannot compile this game (a usage error, exit 2):
    the message says why and names the encodings that can."""


# The sections of each kind of file (bddl/grammar.lark, bddl/pg/reader.py); no name is in two.
PG_SECTIONS = frozenset(PG_READER_SECTIONS)
PROBLEM_SECTIONS = frozenset(("boardsize", "init", "depth", "blackgoals", "whitegoals"))
DOMAIN_SECTIONS = frozenset(("blackactions", "whiteactions"))
_SECTION = re.compile(r"(?:^|\s)#([A-Za-z_]+)")


def sections_of(path) -> tuple[str, ...]:
    """The `#section` names the file uses, in order, comments ('%' to the end of the line) left out;
    () when the file cannot be read (the reader then says why, with its own diagnostic)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return ()
    found: list[str] = []
    for line in text.splitlines():
        found.extend(name.lower() for name in _SECTION.findall(line.split("%", 1)[0]))
    return tuple(dict.fromkeys(found))


def file_kind(path) -> str | None:
    """"pg", "problem" or "domain" when the file's sections are those of one kind only; None otherwise
    (no sections, unknown ones, or a mix), where the suffix decides and the reader reports what is wrong."""
    found = set(sections_of(path))
    kinds = [kind for kind, names in ((PG, PG_SECTIONS), ("problem", PROBLEM_SECTIONS), ("domain", DOMAIN_SECTIONS))
             if found & names]
    return kinds[0] if len(kinds) == 1 and found <= PG_SECTIONS | PROBLEM_SECTIONS | DOMAIN_SECTIONS else None


def is_positional_game(path) -> bool:
    """Is the file a positional game?  Its sections say so, or, where they say nothing clear, a `.pg` suffix."""
    kind = file_kind(path)
    return kind == PG if kind is not None else str(path).lower().endswith(PG_SUFFIX)


def _neither(path) -> str:
    found = sections_of(path)
    listed = ", ".join(f"#{name}" for name in found) if found else "no #sections"
    return (f"{path} is neither a positional game nor a BDDL problem (it has {listed}): a positional game has "
            "#times, #blackturns and #positions; a BDDL problem #boardsize, #init, #depth, #blackgoals and #whitegoals")


def language_of(paths: Sequence[str]) -> str:
    """"pg" for one positional game, "bddl" for a domain and a problem; ModelPathsError otherwise."""
    pg = [p for p in paths if is_positional_game(p)]
    if pg:
        if len(paths) != 1:
            other = next(p for p in paths if p != pg[0])
            if file_kind(pg[0]) is None:  # named .pg, but its sections are neither language's
                raise ModelPathsError(_neither(pg[0]))
            raise ModelPathsError(f"a positional game ({pg[0]}) stands alone: give it without {other}")
        return PG
    if len(paths) == 1:
        kind = file_kind(paths[0])
        if kind == "problem":
            raise ModelPathsError(f"{paths[0]} is a BDDL problem: give a DOMAIN and a PROBLEM file, its domain first")
        if kind == "domain":
            raise ModelPathsError(f"{paths[0]} is a BDDL domain: give a DOMAIN and a PROBLEM file, a problem after it")
        if sections_of(paths[0]):
            raise ModelPathsError(_neither(paths[0]))
    if len(paths) != 2:
        raise ModelPathsError("give a DOMAIN and a PROBLEM file, or a positional game GAME.pg")
    return BDDL


@dataclass(frozen=True)
class GameModel:
    """A game opened from the command line's paths.

    Exactly one of `bddl` (a validated domain and problem) and `pg` (a
    positional game) is set, as `language` says.  `depth` is the depth asked
    about (the file's, or the one given instead)."""

    language: str
    paths: tuple[str, ...]
    rules: GameRules
    bddl: Model | None = None
    pg: PositionalGame | None = None
    warnings: tuple[Diagnostic, ...] = ()

    @property
    def depth(self) -> int:
        return self.rules.depth

    @property
    def black_first(self) -> bool:
        return self.rules.to_move(0) == "black"

    def at_depth(self, depth: int) -> GameModel:
        """The same game asked about `depth` plies (a `.pg` game continues its turn pattern)."""
        if depth == self.depth:
            return self
        if self.pg is not None:
            rules = pg_rules(self.pg, depth)
            return dataclasses.replace(self, rules=rules, pg=rules.game)
        from bddl.game import Game

        assert self.bddl is not None
        model = dataclasses.replace(self.bddl, problem=dataclasses.replace(self.bddl.problem, depth=depth))
        return dataclasses.replace(self, rules=bddl_rules(Game(model.domain, model.problem)), bddl=model)

    def at_position(self, position: Position, plies: int | None = None) -> GameModel:
        """The game going on from `position` (reached after `position.ply`
        plies): its stones as the initial position, the side to move first,
        `plies` (default: the plies left) as the depth."""
        from bddl.game import Game, State

        left = self.depth - position.ply if plies is None else plies
        if self.pg is not None:
            game = game_at(self.pg.with_depth(position.ply + left), position.black, position.white, position.ply)
            rules = pg_rules(game)
            return dataclasses.replace(self, rules=rules, pg=rules.game)
        assert self.bddl is not None
        problem = problem_at(self.bddl.problem, State(position.black, position.white), left, self.rules.to_move(position.ply))
        model = dataclasses.replace(self.bddl, problem=problem)
        return dataclasses.replace(self, rules=bddl_rules(Game(model.domain, problem)), bddl=model)

    def black_has_goal(self) -> bool:
        """Can Black win by its own move?  (Else only by leaving White stuck, in BDDL.)"""
        if self.pg is not None:
            return bool(self.pg.black_wins) or self.pg.graph is not None
        assert self.bddl is not None
        return bool(self.bddl.problem.black_goals)

    def can_be_critical(self, depth: int) -> bool:
        """Can Black's win need exactly `depth` plies?  Black wins on its own
        move when it has a goal, or on White's turn when White is stuck and
        the stuck rule gives Black the game (BDDL); a depth whose last ply can
        bring neither has the answer of the depth before it."""
        last = self.rules.to_move(depth - 1)
        if last == BLACK:
            return self.black_has_goal()
        return self.rules.stuck_winner(last) == BLACK

    def candidate_depths(self, low: int, high: int) -> list[int]:
        """The depths from low to high that can be critical (`can_be_critical`)."""
        return [d for d in range(max(low, 1), high + 1) if self.can_be_critical(d)]

    # -- encodings ----------------------------------------------------------

    def encodings(self) -> list[str]:
        """The encodings that compile this game ("auto" left out: it is one of them)."""
        from .encodings import encodings_of

        return [name for name in encodings_of(self.language) if self.why_not(name) is None]

    def default_encoding(self) -> str:
        """What `bddlc compile` uses when not told."""
        from .encodings import DEFAULT_ENCODING

        return DEFAULT_ENCODING if self.pg is None else self.solve_encoding()

    def solve_encoding(self) -> str:
        """What `bddlc solve` (and depth, play, validate) uses when not told."""
        from .encodings import SOLVE_ENCODING, pg_solve_encoding

        return SOLVE_ENCODING if self.pg is None else pg_solve_encoding(self.pg)

    def why_not(self, encoding: str) -> str | None:
        """Why `encoding` cannot compile this game (None: it can)."""
        from .encodings import canonical_encoding, encoding_language, pg_encoding_misfit

        name = canonical_encoding(encoding)
        language = encoding_language(name, self.language)
        if language is None:
            return f"there is no encoding {encoding!r}"
        if language != self.language:
            return "it compiles .pg positional games" if language == PG else "it compiles BDDL models"
        if self.pg is not None:
            return pg_encoding_misfit(self.pg, name)
        if name == "corrective":
            from .encodings.corrective import NotClaiming, claiming_game
            from .encodings.memory_estimates import guard_encoding

            assert self.bddl is not None
            # reading the game as a claiming game grounds every goal: on a board past the memory
            # limit, that is refused (MemoryBudgetExceeded, exit 3) before the grounding starts
            guard_encoding("corrective", self.bddl.domain, self.bddl.problem, self.depth)
            try:
                claiming_game(self.bddl.domain, self.bddl.problem)
            except NotClaiming as exc:
                return exc.diagnostics[0].message
        return None

    def check_encoding(self, encoding: str) -> str:
        """The encoding's own name when it fits the game; `EncodingDoesNotFit` otherwise."""
        from .encodings import canonical_encoding

        reason = self.why_not(encoding)
        if reason is not None:
            kind = "this positional game" if self.pg is not None else "this BDDL model"
            raise EncodingDoesNotFit(f"--encoding {encoding} does not fit {kind}: {reason}; "
                                     f"the encodings that do: {', '.join(self.encodings())}")
        return canonical_encoding(encoding)

    def formula(self, encoding: str | None = None) -> Formula:
        """The game compiled by `encoding` (default: `default_encoding`), at the model's depth."""
        from .encodings import AUTO_ENCODING

        asked = self.default_encoding() if encoding is None else encoding
        name = asked if asked == AUTO_ENCODING and self.pg is None else self.check_encoding(asked)
        return _bddl_formula(self, name) if self.pg is None else _pg_formula(self, name)


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


def require_files(paths: Sequence[str]) -> None:
    """A path that is no file gets the reader's own diagnostic (exit 1): no such file, with the file
    meant, or a folder, with the games in it; before the paths are classified, which would only
    say that they name no game."""
    from bddl.parser import read_source

    for path in paths:
        if not os.path.isfile(path):
            read_source(path)


def open_model(
    paths: Sequence[str],
    *,
    depth: int | None = None,
    default_depth: int | None = None,
    limits: Limits = Limits(),
    initial_state: bool = True,
) -> GameModel:
    """Read and check the game the paths name.

    `depth` overrides the file's depth, `default_depth` stands in for a
    missing one (BDDL's `#depth`).  Raises ModelPathsError when the paths
    name no game, `bddl.errors.BddlError` (file:line:col diagnostics) when a
    file is wrong."""
    paths = tuple(str(p) for p in paths)
    require_files(paths)
    if language_of(paths) == PG:
        from bddl.ast import Span
        from bddl.errors import BddlLimitError, BddlSemanticError, error
        from bddl.pg.reader import load_pg_located

        read = load_pg_located(paths[0])
        game = read.game
        asked = game.depth if depth is None else depth
        if asked < 1:  # as a BDDL problem's #depth (bddl/validate.py)
            raise BddlSemanticError(error(f"the depth must be at least 1, not {asked}", Span(paths[0], 0, 0, 0, 0),
                                          "a depth D >= 1: the plies Black has to win in"))
        if asked > limits.max_depth:
            raise BddlLimitError(error(f"a depth of {asked} is beyond the limit of {limits.max_depth}", Span(paths[0], 0, 0, 0, 0),
                                       f"a smaller depth, or raise the limit with --max-depth {asked}", code="limit"))
        rules = pg_rules(game, depth)
        return GameModel(PG, paths, rules, pg=rules.game, warnings=read.warnings)
    from bddl.game import Game
    from bddl.loader import load_model

    model = load_model(paths[0], paths[1], depth=depth, default_depth=default_depth, limits=limits, initial_state=initial_state)
    return GameModel(BDDL, paths, bddl_rules(Game(model.domain, model.problem)), bddl=model, warnings=model.warnings)


# -- formulas ----------------------------------------------------------------


@dataclass(frozen=True)
class Formula:
    """A game compiled by one encoding, whichever the language: what compile
    writes and solve hands to a solver.

    `circuit` is None for an encoding built as clauses (COR+, EA, EN, ET),
    which is written as QDIMACS only.  `header` opens the file as comments.
    `decode_first_move(value)` reads Black's first move from an assignment
    (`value(file variable) -> bool`) as a `Play` of the rules, or None when
    the bits name no legal move or Black does not move first."""

    encoding: str  # the encoding's name as the file's header says it ("auto" resolved)
    header: tuple[str, ...]
    circuit: Circuit | None
    compiled: object  # the encoding's own result
    _qdimacs: Callable[..., Qdimacs]
    _first_move: Callable[[Callable[[int], bool]], Play | None]

    @property
    def formats(self) -> tuple[str, ...]:
        return ("qcir", "qdimacs") if self.circuit is not None else ("qdimacs",)

    def qdimacs(self, **tseitin) -> Qdimacs:
        return self._qdimacs(**tseitin)

    def decode_first_move(self, value: Callable[[int], bool]) -> Play | None:
        return self._first_move(value)

    def text(self, fmt: str, polarity: bool = False) -> tuple[str, dict]:
        """The file in `fmt` ("qcir" or "qdimacs") and its sizes (variables,
        gates or None, clauses or None, quantifier blocks)."""
        from .formula_files import formula_text

        if self.circuit is not None:
            text, stats = formula_text(self.circuit, fmt, list(self.header), polarity)
            return text, {"variables": stats.variables, "gates": stats.gates, "clauses": stats.clauses, "blocks": stats.blocks}
        if fmt != "qdimacs":
            raise ValueError(f"{self.encoding} is built as clauses: it is written as QDIMACS only")
        import io

        from circuits import write_qdimacs

        q = self.qdimacs()
        universals = sum(len(block) for quantifier, block in q.prefix if quantifier == "forall")
        buf = io.StringIO()
        counts = f"variables: {q.num_vars} ({universals} universal), clauses: {q.num_clauses}, quantifier blocks: {len(q.prefix)}"
        write_qdimacs(q, buf, list(self.header) + [counts])
        return buf.getvalue(), {"variables": q.num_vars, "gates": None, "clauses": q.num_clauses, "blocks": len(q.prefix)}


def _version() -> str:
    from . import __version__

    return __version__


def _plies(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _bddl_formula(model: GameModel, encoding: str) -> Formula:
    from circuits import numbering, to_qdimacs

    from .encodings import encode, encoding_name
    from .encodings.decoding import engine_move

    assert model.bddl is not None
    bddl = model.bddl
    problem, depth = bddl.problem, model.depth
    compiled = encode(bddl.domain, problem, depth, encoding)
    first = "Black moves first" if problem.black_first else "White moves first"
    header = (
        f"bddlc {_version()}, encoding: {encoding_name(compiled, encoding)}",
        f"domain: {bddl.domain_path}",
        f"problem: {bddl.problem_path}",
        f"board: {problem.width}x{problem.height}, depth: {depth}, {first}",
        f"true iff Black has a winning strategy of at most {_plies(depth)}",
    )

    def first_move(value: Callable[[int], bool]) -> Play | None:
        if not problem.black_first or not compiled.steps:
            return None
        numbers = numbering(compiled.circuit)
        decoded = compiled.decode_move(compiled.steps[0], lambda var: value(numbers.lit(var)))
        game = model.rules.game  # type: ignore[attr-defined]
        move = None if decoded is None else engine_move(game, game.initial, decoded)
        if move is None:
            return None
        return play_of_move(model, move)

    return Formula(encoding_name(compiled, encoding), header, compiled.circuit, compiled,
                   lambda **tseitin: to_qdimacs(compiled.circuit, **tseitin), first_move)


def play_of_move(model: GameModel, move) -> Play:
    """A BDDL engine move from the initial position as a `Play` of the rules."""
    from bddl.notation import describe_move
    from bddl.rules import Position

    game = model.rules.game  # type: ignore[attr-defined]
    return Play(move.side, describe_move(game, game.initial, move), Position(move.state.black, move.state.white, 1), move)


def play_of_cell(model: GameModel, cell: int) -> Play | None:
    """The first claim of `cell` as a `Play` of the rules (None: not a legal first claim)."""
    for play in model.rules.plays(model.rules.initial):
        if play.move == cell:
            return play
    return None


def _pg_formula(model: GameModel, encoding: str) -> Formula:
    from .encodings import encode_positional

    game = model.pg
    assert game is not None
    compiled = encode_positional(game, encoding)
    first = {"black": "Black moves first", "white": "White moves first", None: "no moves"}[compiled.first_side]
    open_game = compiled.game
    header = (
        f"bddlc {_version()}, encoding: {compiled.name}",
        f"game: {model.paths[0]}",
        f"cells: {len(game.cells)} ({open_game.size} open), time points: {game.depth} "
        f"({open_game.depth} encoded), {first}",
        f"true iff Black wins within {_plies(game.depth)}",
    )

    def first_move(value: Callable[[int], bool]) -> Play | None:
        if compiled.first_side != BLACK:
            return None
        cell = compiled.first_move(value)
        return None if cell is None else play_of_cell(model, compiled.game.cells[cell])

    return Formula(compiled.name, header, compiled.circuit, compiled, compiled.qdimacs, first_move)
