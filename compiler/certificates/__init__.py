"""Strategy certificates: a verdict in a file that anyone can check.

A certificate (docs/certificates.md, format versions 1 to 4) proves one verdict about one
game at one depth by the strategist's whole strategy: Black's for "Black
wins", White's for "Black does not win".  `write_certificate` builds it from
an explicit engine's answers (`produce`, `oracles`) and writes it (`files`);
`check` replays it with the rules of the game alone, and shares nothing with
the engines, the encodings or the solvers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bddl.budget import MB, MemoryBudgetExceeded, memory_limit

from .files import file_sha256, write
from .oracles import Oracle
from .produce import BLACK_WINS, NO_BLACK_WIN, Certificate, StrategyNotFound, choose_by_oracle, produce

__all__ = ["CertificateWritten", "StrategyNotFound", "build_certificate", "write_certificate"]


@dataclass(frozen=True)
class CertificateWritten:
    path: str
    claim: str
    nodes: int
    bytes: int
    produced_by: str
    swaps: int = 0  # moves answered by a sibling's strategy (format version 2)
    pairings: int = 0  # lines ended by White's pairing strategy (format version 3)
    at_once: int = 0  # replies left out, each answered by the strategist's win at once (format version 4)


def build_certificate(model, black_wins: bool, *, max_memory: int | None = None, oracle=None, qbf_solver: str | None = None,
                      qbf_timeout: float | None = None, carriers: bool = True, pairings: bool = True,
                      decide_first: bool = True, searched=None, core: str | None = None, at_once: bool = True) -> Certificate:
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
    table and moves then make the strategy instead of a new minimax's.

    `core`: "python" asks the Python engines; otherwise (None, "compiled") the compiled core's
    searchers answer where the core is built and takes the game (`oracles.core_takes`): the same
    values and own moves, so the same bytes (docs/certificates.md).

    `at_once`: a node of the side the strategy answers leaves out the replies the
    strategist answers with a win at once (format version 4, `produce.produce`); False
    lists them all, in a file an older checker reads."""
    limit = memory_limit() if max_memory is None else max_memory * MB
    try:
        return _build(model, black_wins, limit, oracle, qbf_solver, qbf_timeout, carriers, pairings, decide_first, searched,
                      core, at_once)
    except MemoryBudgetExceeded as exc:  # the engine and the certificate get half the limit each
        raise exc.of_a_share(2, limit) from None


def _build(model, black_wins: bool, limit: int, oracle, qbf_solver: str | None, qbf_timeout: float | None,
           carriers: bool, pairings: bool, decide_first: bool, searched=None, core: str | None = None,
           at_once: bool = True) -> Certificate:
    claim = BLACK_WINS if black_wins else NO_BLACK_WIN
    help = model.certificate_help(claim, pairings, carriers, core)  # the language's shortcuts (compiler.game_model)
    has_pairing = help.has_pairing
    if has_pairing is not None and model.rules.winner_before_play() is None and has_pairing(model.rules.initial):
        # White pairs the cells from the start: the whole certificate is one node, no engine is asked
        oracle = oracle or Oracle("pairing strategy", lambda position: False)
    if qbf_solver is not None and black_wins:
        from .oracles import qbf_chooser

        choose, produced_by = qbf_chooser(model, qbf_solver, qbf_timeout), f"qbf ({qbf_solver})"
    else:
        rules = model.rules
        if oracle is None:
            # the explicit engine of the game's language; with the initial position decided first where asked
            oracle = model.certificate_oracle(limit // 2, searched, decide_first and rules.winner_before_play() is None, core)
        if decide_first and rules.winner_before_play() is None and oracle.black_wins(rules.initial) != black_wins:
            raise StrategyNotFound(f"{oracle.name} says the claim {claim} is false")
        # White's replies that leave it a pairing first: their lines end at once, no engine asked
        sure = None if has_pairing is None else lambda play: has_pairing(play.after)
        choose = choose_by_oracle(rules, claim, oracle.black_wins, help.preference, oracle.own_move, sure)
        produced_by = oracle.name
    return produce(
        model.rules,
        claim,
        choose,
        black_cannot_win=help.out_of_reach,
        dead=help.dead,
        symmetries=help.symmetries,
        files=model.paths,
        sha256=[file_sha256(p) for p in model.paths],
        produced_by=produced_by,
        max_bytes=limit // 2,
        carriers=help.carriers,
        pairing=help.pairing,
        at_once=at_once,
    )


def write_certificate(model, black_wins: bool, path: str | Path, *, max_memory: int | None = None, oracle=None,
                      qbf_solver: str | None = None, qbf_timeout: float | None = None, carriers: bool = True,
                      decide_first: bool = True, searched=None, core: str | None = None, at_once: bool = True) -> CertificateWritten:
    """Build the verdict's certificate (`build_certificate`) and write it to `path`:
    what `bddlc search|solve --certificate FILE` calls once the verdict is known."""
    certificate = build_certificate(model, black_wins, max_memory=max_memory, oracle=oracle, qbf_solver=qbf_solver,
                                    qbf_timeout=qbf_timeout, carriers=carriers, decide_first=decide_first, searched=searched,
                                    core=core, at_once=at_once)
    size = write(certificate, path)
    swaps = sum(edge.swap is not None for edges in certificate.moves for edge in edges)
    return CertificateWritten(str(path), certificate.claim, certificate.size, size, certificate.produced_by or "", swaps,
                              len(certificate.pairings), certificate.left_out)
