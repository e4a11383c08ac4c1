"""One game, whichever language it is written in: the seam every route and command is written against.

A `GameModel` is what `compiler.model.open_model` returns.  Everything that differs between the
languages is a method here, answered by one adapter per language (`compiler.languages`:
`BddlModel`, `PgModel`); the routes, the commands, the certificates and the pictures ask these
methods and never which language a model is.  Adding a language is writing one more adapter
(docs/architecture.md, "A new language").

The methods fall into groups, each owned by the adapter because the languages answer it
differently:

* the game at another depth or from a position (`at_depth`, `at_position`);
* the encodings that fit and why the others do not, and `formula()`, the game compiled, with the
  decoding of Black's first move;
* the QBF route's first-move policy (`solve_qbf`: a BDDL move read from the assignment or proved
  by solving again; a `.pg` claim confirmed by the explicit solver, shallower depths first);
* the explicit engines (`search_plan`, `search`), the certificate's engine and shortcuts
  (`certificate_oracle`, `certificate_help`), PPN²'s recipe (`ppn2_recipe`);
* what the commands say or show that is the language's own (`words`, `move_form`, `goal_sheet`...).

This module imports nothing of either language at module level: the lower packages (solving,
certificates, pictures) import it for the type alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, ClassVar

from bddl.rules import BLACK, GameRules, Play, Position

if TYPE_CHECKING:
    from bddl.errors import Diagnostic
    from circuits import Circuit, Qdimacs


class ModelPathsError(ValueError):
    """The paths name no game (a usage error, exit 2): the message says what to give instead."""


class EncodingDoesNotFit(ValueError):
    """The encoding asked for cannot compile this game (a usage error, exit 2):
    the message says why and names the encodings that can."""


@dataclass(frozen=True)
class LanguageWords:
    """How the commands name a language's things (the language's own words, not a branch on it)."""

    model: str  # "BDDL model", "positional game"
    white_first: str  # what `solve` says of a game White opens
    candidates_note: str  # depth's note on which depths can be critical when Black has no goal of its own
    move_form: str  # how to type a move ("ACTION X Y", "a cell's name")
    move_placeholder: str  # --reply-to's example ("'ACTION X Y'", "CELL")


@dataclass(frozen=True)
class CertificateHelp:
    """What a language gives the certificate builder beyond an oracle (`compiler.certificates`):
    each None where it has nothing of the kind."""

    preference: Callable | None = None  # play -> sort key of the strategist's moves
    out_of_reach: Callable | None = None  # position -> Black's goal is out of reach
    dead: Callable | None = None  # (position, cell bit) -> a dead cell for the other side
    pairing: Callable | None = None  # position -> White's pairing there, or None
    has_pairing: Callable | None = None  # position -> whether White has one
    symmetries: tuple[tuple[int, ...], ...] = ()
    carriers: bool = False  # swap edges (format version 2)


# The compiled core's head start before solve's race (`GameModel.head_start_positions`): the core
# expands 1.3-2.5 million positions a second (docs/benchmarks.md), so a search that gives way has cost
# about 0.1-0.2 s.  Every GTTT game of the corpus is decided within it (the largest takes 60,731
# positions), and so is every entry of problems/expected.toml but the slow ones (the largest,
# knightthrough second_3x6_d16: 230,935).
HEAD_START_POSITIONS = 250_000


@dataclass(frozen=True)
class GameModel(ABC):
    """A game opened from the command line's paths (see the module docstring).

    `paths` are the files it was read from, `rules` its referee (`bddl.rules.GameRules`, the same
    questions for both languages), `warnings` what opening found; each adapter adds the language's
    own parsed form as a keyword field."""

    paths: tuple[str, ...]
    rules: GameRules
    warnings: tuple[Diagnostic, ...] = ()

    language: ClassVar[str]  # the language's name in files and JSON output ("bddl", "pg"): data, not a branch
    words: ClassVar[LanguageWords]
    # what a race's forked members of this language import on their first search, imported once in
    # the parent instead (`compiler.solving.routes.MEMBER_MODULES`, the same reason)
    member_modules: ClassVar[tuple[str, ...]] = ()

    @property
    def depth(self) -> int:
        return self.rules.depth

    @property
    def black_first(self) -> bool:
        return self.rules.to_move(0) == "black"

    @abstractmethod
    def with_paths(self, paths: tuple[str, ...], warnings) -> GameModel:
        """The same game under other file names (the API's texts: `<domain.bddl>`...)."""

    # -- the game at another depth or from a position ----------------------------------------

    @abstractmethod
    def at_depth(self, depth: int) -> GameModel:
        """The same game asked about `depth` plies (a `.pg` game continues its turn pattern)."""

    @abstractmethod
    def at_position(self, position: Position, plies: int | None = None) -> GameModel:
        """The game going on from `position` (reached after `position.ply` plies): its stones as the
        initial position, the side to move first, `plies` (default: the plies left) as the depth."""

    @abstractmethod
    def black_has_goal(self) -> bool:
        """Can Black win by its own move?  (Else only by leaving White stuck, in BDDL.)"""

    @property
    @abstractmethod
    def turn_period(self) -> int:
        """After how many plies the turn pattern repeats (the depth scan's stride)."""

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

    # -- encodings ------------------------------------------------------------------------------

    @abstractmethod
    def own_encodings(self) -> list[str]:
        """The encodings of this language ("auto" left out)."""

    @abstractmethod
    def default_encoding(self) -> str:
        """What `bddlc compile` uses when not told."""

    @abstractmethod
    def solve_encoding(self) -> str:
        """What `bddlc solve` (and depth, play, validate) uses when not told."""

    @abstractmethod
    def misfit(self, encoding: str) -> str | None:
        """Why this language's encoding `encoding` (canonical) cannot compile this game (None: it can)."""

    @abstractmethod
    def compile(self, encoding: str) -> Formula:
        """The game compiled by the checked encoding `encoding`, at the model's depth."""

    def encodings(self) -> list[str]:
        """The encodings that compile this game ("auto" left out: it is one of them)."""
        return [name for name in self.own_encodings() if self.why_not(name) is None]

    def why_not(self, encoding: str) -> str | None:
        """Why `encoding` cannot compile this game (None: it can)."""
        from .encodings import canonical_encoding, encoding_language

        name = canonical_encoding(encoding)
        language = encoding_language(name, self.language)
        if language is None:
            return f"there is no encoding {encoding!r}"
        if language != self.language:
            return "it compiles .pg positional games" if language == "pg" else "it compiles BDDL models"
        return self.misfit(name)

    def check_encoding(self, encoding: str) -> str:
        """The encoding's own name when it fits the game; `EncodingDoesNotFit` otherwise."""
        from .encodings import canonical_encoding

        reason = self.why_not(encoding)
        if reason is not None:
            raise EncodingDoesNotFit(f"--encoding {encoding} does not fit this {self.words.model}: {reason}; "
                                     f"the encodings that do: {', '.join(self.encodings())}")
        return canonical_encoding(encoding)

    def formula(self, encoding: str | None = None) -> Formula:
        """The game compiled by `encoding` (default: `default_encoding`), at the model's depth."""
        return self.compile(self.checked_encoding(self.default_encoding() if encoding is None else encoding))

    def checked_encoding(self, encoding: str) -> str:
        """`check_encoding`, where a language may take a name of its own that no list holds ("auto")."""
        return self.check_encoding(encoding)

    # -- the routes --------------------------------------------------------------------------

    @abstractmethod
    def solve_qbf(self, *, encoding: str | None = None, solver: str = "default", preprocess: str = "none",
                  timeout: float | None = None, stop: Callable[[], bool] | None = None):
        """The QBF route (`compiler.solving.qbf`) with this language's first-move policy: a `SolveResult`."""

    @abstractmethod
    def search_plan(self) -> tuple[str, dict]:
        """The explicit engine that suits the game: its name and `search`'s options."""

    def head_start_positions(self) -> int:
        """Positions the search may expand in-process before `solve`'s race starts (0: race at once):
        only where the language's engine is the compiled core, which expands them in milliseconds."""
        return 0

    @abstractmethod
    def search_refusal(self, *, algorithm: str, race_patterns: bool, positional_rules: bool) -> str | None:
        """Why these search options cannot go together on this game (None: they can)."""

    @abstractmethod
    def search(self, *, algorithm: str, max_positions: int, race_patterns: bool = False, positional_rules: bool = False,
               parallel=None, core: str | None = None, table_mb: float | None = None, keep: bool = False):
        """The engine's answer as a `compiler.solving.search.outcome.SearchOutcome`, its own first
        move.  `core` ("compiled", "python"; None: compiled where it can answer) and `table_mb`
        (the compiled core's table) choose the implementation where the language has two.  `keep`:
        a certificate will ask the search more, so the compiled core's minimax runs on a searcher
        kept between questions (`bddl.engines.compiled.leaf`), returned as the outcome's solver."""

    # the algorithms the compiled core runs on this language's games (`--algorithm`)
    core_algorithms: ClassVar[tuple[str, ...]] = ("minimax",)

    @abstractmethod
    def core_refusal(self, *, positional_rules: bool = False) -> str | None:
        """Why the compiled core cannot search this game (None: it can), with --positional-rules
        where `positional_rules`."""

    @abstractmethod
    def knowledge_refusal(self, *, knowledge: str, algorithm: str) -> str | None:
        """Why --knowledge `knowledge` (threats or none: the plain minimax) cannot go with these options."""

    @abstractmethod
    def search_plain(self, *, core: str, knowledge: str, max_positions: int, table_mb: float | None):
        """The plain minimax (`--knowledge threats|none`) by `core`, as a `SearchOutcome`."""

    @abstractmethod
    def ppn2_recipe(self, *, race_patterns: bool = False, positional_rules: bool = False, core: str | None = None):
        """What PPN²'s workers rebuild the game from (`compiler.solving.search.ppn2`); `core`
        "python" keeps the workers' search leaf jobs in the Python engines (else the compiled
        core runs them where it is built and takes the game)."""

    # -- certificates ------------------------------------------------------------------------

    @abstractmethod
    def certificate_oracle(self, max_bytes: int, searched=None, decide: bool = True, core: str | None = None):
        """The explicit engine that answers a certificate's questions (`compiler.certificates.oracles.Oracle`):
        the compiled core's where it is built and takes the game, unless `core` is "python"."""

    @abstractmethod
    def certificate_help(self, claim: str, pairings: bool, carriers: bool, core: str | None = None) -> CertificateHelp:
        """The language's shortcuts for the certificate builder (`core`: as `certificate_oracle`'s, for
        the shortcuts the compiled core answers faster)."""

    @abstractmethod
    def checker_game(self):
        """What the certificate checker needs beside the rules (a positional game's symmetries), or None."""

    # -- what the commands say and show ------------------------------------------------------

    @abstractmethod
    def lint(self) -> list:
        """The language's own warnings beyond those of opening (compile prints them)."""

    @abstractmethod
    def example_move(self) -> str:
        """A White move to show in play's instructions: a real one of this game."""

    @abstractmethod
    def first_moves(self) -> frozenset[int] | None:
        """The cells Black's first move is restricted to (a `.pg` game's #firstmoves), or None."""

    @abstractmethod
    def goal_sheet(self, sheet, board) -> None:
        """Draw the goals on a model sheet (`compiler.pictures.sheet`)."""

    @abstractmethod
    def connection_goal(self) -> bool:
        """Is Black's goal a connection between two borders (Hex)?  (The explorer draws it.)"""

    @abstractmethod
    def export_refusal(self) -> str | None:
        """Why `bddlc export` does not apply to this game (None: it does)."""

    @abstractmethod
    def as_positional_game(self, depth: int | None = None) -> Exported:
        """The game as a `.pg` positional game (`bddlc export`), where `export_refusal` is None."""


@dataclass(frozen=True)
class Exported:
    """A game written as a positional game: the game, a warning where the two languages' rules
    differ on it, and the comments that say where it came from."""

    game: object  # a bddl.pg.game.PositionalGame
    warning: object | None  # a bddl.errors.Diagnostic
    comments: tuple[str, ...]


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


def version() -> str:
    from . import __version__

    return __version__


def plies(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"
