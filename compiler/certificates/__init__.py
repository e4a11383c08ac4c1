"""Strategy certificates: a verdict in a file that anyone can check.

A certificate (docs/certificates.md, format versions 1 and 2) proves one verdict about one
game at one depth by the strategist's whole strategy: Black's for "Black
wins", White's for "Black does not win".  `write_certificate` builds it from
an explicit engine's answers (`produce`, `oracles`) and writes it (`files`);
`check` replays it with the rules of the game alone, and shares nothing with
the engines, the encodings or the solvers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bddl.budget import MB, MemoryBudgetExceeded, memory_limit

from .files import file_sha256, write
from .oracles import Oracle
from .produce import BLACK_WINS, NO_BLACK_WIN, Certificate, StrategyNotFound, choose_by_oracle, produce

__all__ = ["CertificateWritten", "StrategyNotFound", "build_certificate", "game_symmetries", "write_certificate"]


@dataclass(frozen=True)
class CertificateWritten:
    path: str
    claim: str
    nodes: int
    bytes: int
    produced_by: str
    swaps: int = 0  # moves answered by a sibling's strategy (format version 2)
    pairings: int = 0  # lines ended by White's pairing strategy (format version 3)


def game_symmetries(model) -> tuple[tuple[int, ...], ...]:
    """The board symmetries the positional solver uses (`bddl.pg.geometry.symmetries`),
    without the identity, and only those that keep the first-move set: none for BDDL."""
    if model.language != "pg":
        return ()
    from bddl.pg.geometry import symmetries

    game = model.pg
    first = game.first_moves
    return tuple(p for p in symmetries(game)[1:] if first is None or frozenset(p[i] for i in first) == first)


def build_certificate(model, black_wins: bool, *, max_memory: int | None = None, oracle=None, qbf_solver: str | None = None,
                      qbf_timeout: float | None = None, carriers: bool = True, pairings: bool = True,
                      decide_first: bool = True, searched=None) -> Certificate:
    """The certificate of the verdict (`black_wins`) about the opened game (`compiler.model.GameModel`).

    The strategist's moves come from the explicit engine of the game's
    language (`oracles.engine_oracle`) unless an `oracle` is given; the engine's
    table and the certificate's nodes each get half of `max_memory` megabytes
    (default: the process's --max-memory).  Raises StrategyNotFound when the
    verdict is wrong, `bddl.budget.MemoryBudgetExceeded` past the memory.

    With `qbf_solver`, a win's certificate takes Black's moves from the QBF
    route instead (a solve per position Black reaches, `oracles.qbf_chooser`,
    each within `qbf_timeout` seconds); a refutation's still comes from the
    explicit engine, asked with the verdict known.  `produced_by` says which.

    `carriers`: in a certificate of a positional game, the other side's moves
    on cells dead for it (no goal of its own through them can still be
    completed: every cell, for White without winning sets) and outside the
    carrier of a sibling's strategy are swap edges (format version 2,
    `produce.produce`, built depth first).

    `pairings`: in a refutation's certificate of a positional game whose goals
    are winning sets, a line ends where White has a pairing strategy
    (`bddl.pg.pairing`; format version 3), and White's replies that leave it
    one are chosen first.

    `decide_first=False` skips asking the engine about the initial position
    before building: the strategy is then asked for position by position
    only, which for a refutation full of pairings is far less than deciding
    the whole game (the checker, not this, says whether the claim holds).

    `searched`: the solver of the search that decided a positional game
    (`bddl.engines.positional.PgSearchResult.solver`, minimax or df-pn), whose
    table and moves then make the strategy instead of a new minimax's."""
    limit = memory_limit() if max_memory is None else max_memory * MB
    try:
        return _build(model, black_wins, limit, oracle, qbf_solver, qbf_timeout, carriers, pairings, decide_first, searched)
    except MemoryBudgetExceeded as exc:  # the engine and the certificate get half the limit each
        raise exc.of_a_share(2, limit) from None


def _build(model, black_wins: bool, limit: int, oracle, qbf_solver: str | None, qbf_timeout: float | None,
           carriers: bool, pairings: bool, decide_first: bool, searched=None) -> Certificate:
    claim = BLACK_WINS if black_wins else NO_BLACK_WIN
    preference, out_of_reach, dead = _shortcuts(model, claim)
    pairing, has_pairing = _pairings(model) if claim == NO_BLACK_WIN and pairings else (None, None)
    if has_pairing is not None and model.rules.winner_before_play() is None and has_pairing(model.rules.initial):
        # White pairs the cells from the start: the whole certificate is one node, no engine is asked
        oracle = oracle or Oracle("pairing strategy", lambda position: False)
    if qbf_solver is not None and black_wins:
        from .oracles import qbf_chooser

        choose, produced_by = qbf_chooser(model, qbf_solver, qbf_timeout), f"qbf ({qbf_solver})"
    else:
        rules = model.rules
        if oracle is None:
            oracle = _engine_decided(model, limit // 2, searched, decide_first and rules.winner_before_play() is None)
        if decide_first and rules.winner_before_play() is None and oracle.black_wins(rules.initial) != black_wins:
            raise StrategyNotFound(f"{oracle.name} says the claim {claim} is false")
        # White's replies that leave it a pairing first: their lines end at once, no engine asked
        sure = None if has_pairing is None else lambda play: has_pairing(play.after)
        choose = choose_by_oracle(rules, claim, oracle.black_wins, preference, oracle.own_move, sure)
        produced_by = oracle.name
    return produce(
        model.rules,
        claim,
        choose,
        black_cannot_win=out_of_reach,
        dead=dead,
        symmetries=game_symmetries(model),
        files=model.paths,
        sha256=[file_sha256(p) for p in model.paths],
        produced_by=produced_by,
        max_bytes=limit // 2,
        carriers=carriers and model.language == "pg",
        pairing=pairing,
    )


def _engine_decided(model, limit: int, searched, decide: bool) -> Oracle:
    """The explicit engine's oracle (`oracles.engine_oracle`), with the initial position decided
    first when `decide`: a BDDL game's minimax whose table outgrows its share of the memory
    there gives way to df-pn, whose table is bounded (`oracles.fallback`)."""
    from .oracles import engine_oracle, fallback

    oracle = engine_oracle(model, limit, searched)
    if not decide or model.language == "pg" or searched is not None:
        return oracle
    try:
        oracle.black_wins(model.rules.initial)
    except MemoryBudgetExceeded:
        return fallback(model, limit)
    return oracle


def _pairings(model):
    """For a positional game: White's pairing strategy from a position, where it has one
    (`bddl.pg.pairing`), within the depth: it blocks every winning set (on Hex, every path)
    that Black could still complete in its moves left; and whether it has one, which the
    chooser asks of every White reply (cheaper: no SAT call where the quick search meets
    a pairing).  (None, None) where pairings do not apply."""
    if model.language != "pg":
        return None, None
    from bddl.pg.pairing import PairingFinder

    finder = PairingFinder(model.pg, within_depth=True)  # the sets Black can complete in its moves left; Hex: short paths
    if not finder.usable:
        return None, None

    @lru_cache(maxsize=1 << 16)  # the builder asks about the nodes it makes
    def pairing(position):
        return finder.find(position.black, position.white, position.ply)

    @lru_cache(maxsize=1 << 16)  # the chooser and the oracle ask about the same positions
    def has_pairing(position) -> bool:
        return finder.exists(position.black, position.white, position.ply)

    return pairing, has_pairing


def _shortcuts(model, claim: str):
    """For a positional game: the strategist's moves ordered by how many cells Black
    still needs after them (fewest first for Black, most for White), the test of
    positions where Black's goal is out of reach, and of the other side's moves on
    cells no goal of its own can use any more (`check.black_need`, `check.need_through`:
    the checker's own definitions, so that what the producer cuts the checker accepts)."""
    if model.language != "pg":
        return None, None, None
    from bddl.rules import BLACK, WHITE

    from .check import black_moves_left, black_need, moves_left, need_through

    game, rules = model.pg, model.rules
    other = WHITE if claim == BLACK_WINS else BLACK

    def dead(position, cell: int) -> bool:
        return need_through(game, position, cell.bit_length() - 1, other) > moves_left(rules, position.ply, other)

    if claim == BLACK_WINS:
        return (lambda play: black_need(game, play.after)), None, dead
    return (lambda play: -black_need(game, play.after)), (lambda p: black_need(game, p) > black_moves_left(rules, p.ply)), dead


def write_certificate(model, black_wins: bool, path: str | Path, *, max_memory: int | None = None, oracle=None,
                      qbf_solver: str | None = None, qbf_timeout: float | None = None, carriers: bool = True,
                      decide_first: bool = True, searched=None) -> CertificateWritten:
    """Build the verdict's certificate (`build_certificate`) and write it to `path`:
    what `bddlc search|solve --certificate FILE` calls once the verdict is known."""
    certificate = build_certificate(model, black_wins, max_memory=max_memory, oracle=oracle, qbf_solver=qbf_solver,
                                    qbf_timeout=qbf_timeout, carriers=carriers, decide_first=decide_first, searched=searched)
    size = write(certificate, path)
    swaps = sum(edge.swap is not None for edges in certificate.moves for edge in edges)
    return CertificateWritten(str(path), certificate.claim, certificate.size, size, certificate.produced_by or "", swaps,
                              len(certificate.pairings))
