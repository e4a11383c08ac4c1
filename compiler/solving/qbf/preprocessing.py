"""Bloqqer preprocessing through pyqbf, with the safety net its wrapper needs.

Preprocessing is where wrong answers hide.  pyqbf's `Bloqqer().preprocess`
can hand back a formula whose prefix leaves out variables its clauses still
use; every solver treats such variables as outermost existentials, which
takes away their dependence on the universals and flips true formulas to
false (second-player Breakthrough 2x5 at depth 10; docs/qbf-solvers.md
§3).  So no preprocessed formula is used until
`check_prefix` finds every clause variable quantified, and a formula that
fails the check is repaired by `repair_prefix`, or not used at all.

Why the repair is sound.  Bloqqer (run with `keep`, as the library does)
never renumbers a variable and never moves one to another quantifier block:
a variable's scope is set once, when it is declared.  It creates variables
in exactly two places, universal expansion (`expand`: the copies go into
`inner_most_scope`, an existential scope) and long-clause splitting
(`split`: `add_quantifier` of a positive index, again the innermost
existential scope).  So the complete prefix of Bloqqer's result is always
the original prefix restricted to the variables still in use, followed by
the new variables in the innermost existential block; that is the prefix
`repair_prefix` writes, whatever the wrapper reported.  The wrapper's own
prefix is only used as a cross-check: if it ever quantifies an original
variable differently from the original, or reorders the original blocks,
the premise above is broken and the formula is not used (fall back to no
preprocessing).

A second fault is Bloqqer's own: given a formula whose innermost block is
universal, it files its expansion copies under that block and decides true
formulas false.  `bloqqer_input` removes such a block first.

The tests hold this path to the game engine: on the Breakthrough and
Domineering instances where each fault flips the answer, on suite games whose
result needs the repair, and on random games and random positions.

pyqbf's Bloqqer runs in-process and cannot be interrupted (it holds the
GIL), so it runs in a forked child process that is killed at the time limit
(a fork costs about 10 ms; a fresh interpreter importing pyqbf, 0.5 s).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from circuits import Qdimacs, write_qdimacs

PREPROCESSORS = ("none", "bloqqer")


@dataclass(frozen=True)
class PrefixRepair:
    """What `repair_prefix` did: the complete formula, or why there is none."""

    formula: Qdimacs | None
    missing: int  # clause variables the reported prefix left out
    created: int  # of those, variables Bloqqer created (above the original numbering)
    problem: str | None = None  # why the result cannot be trusted (then formula is None)


@dataclass(frozen=True)
class Preprocessed:
    """Bloqqer's outcome on one formula.

    `status` is "decided" (Bloqqer alone found the verdict), "complete" (the
    reported prefix was complete), "repaired" (it was not; `formula` carries
    the repaired prefix), "fallback" (not trustworthy: solve the original),
    "timeout" or "error" (solve the original, if there is time left)."""

    status: str
    verdict: bool | None
    formula: Qdimacs | None
    seconds: float
    note: str


def unquantified(prefix: tuple[tuple[str, tuple[int, ...]], ...], clauses) -> list[int]:
    """The clause variables that no quantifier block names, in increasing order.

    Solvers read such variables as outermost existentials, which is exactly
    what turns a preprocessed true formula into a false one."""
    quantified = {v for _, block in prefix for v in block}
    used = {abs(lit) for clause in clauses for lit in clause}
    return sorted(used - quantified)


def check_prefix(formula: Qdimacs) -> list[int]:
    """`unquantified` for a Qdimacs value: empty when the formula is closed."""
    return unquantified(formula.prefix, formula.clauses)


def repair_prefix(original: Qdimacs, reported: list[int], clauses: list[list[int]]) -> PrefixRepair:
    """The preprocessed formula with the prefix Bloqqer's result really has.

    `reported` is pyqbf's prefix (signed variables, negative = universal;
    zeros are ignored).  See the module docstring for why the result is the
    original prefix restricted to the used variables, plus Bloqqer's new
    variables innermost existential."""
    level: dict[int, int] = {}
    quant_of: dict[int, str] = {}
    for index, (quant, block) in enumerate(original.prefix):
        for v in block:
            level[v] = index
            quant_of[v] = quant
    top = original.num_vars
    if original.prefix and original.prefix[-1][0] != "exists":
        return PrefixRepair(None, 0, 0, "the formula given to Bloqqer had a universal innermost block")
    # cross-check the reported prefix against the premise of the repair
    last_level = -1
    for signed in reported:
        if signed == 0:
            continue
        v = abs(signed)
        quant = "forall" if signed < 0 else "exists"
        if v > top:
            if quant != "exists":
                return PrefixRepair(None, 0, 0, f"Bloqqer's new variable {v} is universal")
            continue
        if v not in quant_of:
            return PrefixRepair(None, 0, 0, f"variable {v} was not quantified in the original formula")
        if quant_of[v] != quant:
            return PrefixRepair(None, 0, 0, f"variable {v} changed from {quant_of[v]} to {quant}")
        if level[v] < last_level:
            return PrefixRepair(None, 0, 0, f"variable {v} moved to an outer quantifier block")
        last_level = level[v]
    reported_vars = {abs(v) for v in reported if v}
    used = sorted({abs(lit) for clause in clauses for lit in clause})
    for v in used:
        if v <= top and v not in level:
            return PrefixRepair(None, 0, 0, f"clause variable {v} was never quantified")
    missing = [v for v in used if v not in reported_vars]
    created = sorted(v for v in set(used) | reported_vars if v > top)
    blocks = _restricted(original.prefix, set(used) | {v for v in reported_vars if v <= top})
    if created:
        if blocks and blocks[-1][0] == "exists":
            blocks[-1][1].extend(created)
        else:
            blocks.append(("exists", list(created)))
    num_vars = max([top] + created)
    formula = Qdimacs(
        num_vars,
        tuple((quant, tuple(block)) for quant, block in blocks),
        tuple(tuple(clause) for clause in clauses),
    )
    return PrefixRepair(formula, len(missing), sum(v > top for v in missing))


def _restricted(prefix, keep: set[int]) -> list[tuple[str, list[int]]]:
    """The prefix with only the variables in `keep`, blocks that became empty
    dropped and neighbours with the same quantifier merged."""
    blocks: list[tuple[str, list[int]]] = []
    for quant, block in prefix:
        kept = [v for v in block if v in keep]
        if not kept:
            continue
        if blocks and blocks[-1][0] == quant:
            blocks[-1][1].extend(kept)
        else:
            blocks.append((quant, kept))
    return blocks


def bloqqer_input(formula: Qdimacs) -> Qdimacs:
    """The same formula in the shape Bloqqer needs: only variables the clauses
    use, and an existential innermost block.

    Bloqqer puts the copies it makes when it expands a universal into its
    innermost scope, assuming (with an assert compiled out of release
    builds) that this scope is existential.  When it is universal, as in a
    game whose last ply is White's and whose last White move block feeds no
    clause, the copies become universals and Bloqqer "decides" true
    formulas false (seen on Domineering 5x2 at depth 6).  Dropping unused
    variables and universally reducing an innermost universal block (both
    keep the formula equivalent) rules that out, and keeps variable numbers."""
    clauses = formula.clauses
    blocks = _restricted(formula.prefix, {abs(lit) for clause in clauses for lit in clause})
    while blocks and blocks[-1][0] == "forall":
        innermost = set(blocks.pop()[1])
        clauses = tuple(tuple(lit for lit in clause if abs(lit) not in innermost) for clause in clauses)
    return Qdimacs(formula.num_vars, tuple((q, tuple(b)) for q, b in blocks), tuple(clauses))


@dataclass(frozen=True)
class BloqqerRun:
    """What pyqbf's Bloqqer returned, unchecked: a verdict, or a prefix
    (signed variables, negative = universal, as pyqbf gives it) and clauses."""

    status: str  # "decided" | "formula" | "timeout" | "error"
    verdict: bool | None = None
    prefix: tuple[int, ...] = ()
    clauses: tuple[tuple[int, ...], ...] = ()
    seconds: float = 0.0
    note: str = ""


def _bloqqer_child(conn, text: str, parent: int) -> None:
    """Runs in the forked child: Bloqqer on the QDIMACS text, the raw result sent back."""
    from ..processes.processes import in_forked_child

    in_forked_child(parent)  # dies with bddlc, even if bddlc is killed outright
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # Bloqqer may print warnings; they must not mix with our output
    os.dup2(devnull, 2)
    from pyqbf.formula import PCNF
    from pyqbf.process import Bloqqer

    result = Bloqqer().preprocess(PCNF(from_string=text))
    if isinstance(result, bool):
        conn.send(("decided", result))
    else:
        conn.send(("formula", ([int(v) for v in result.prefix], [[int(lit) for lit in c] for c in result.clauses])))
    conn.close()


def run_bloqqer(formula: Qdimacs, timeout: float | None = None) -> BloqqerRun:
    """pyqbf's Bloqqer on `formula`, in a forked child killed at `timeout`
    seconds (Bloqqer holds the GIL and cannot be interrupted in-process).
    The result is raw: `bloqqer` is the function that checks it."""
    import io
    import multiprocessing

    start = time.perf_counter()
    buffer = io.StringIO()
    write_qdimacs(formula, buffer)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_bloqqer_child, args=(sender, buffer.getvalue(), os.getpid()), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            return BloqqerRun("timeout", seconds=time.perf_counter() - start, note="Bloqqer ran out of time")
        try:
            kind, payload = receiver.recv()
        except EOFError:
            child.join(1)
            return BloqqerRun("error", seconds=time.perf_counter() - start, note=f"Bloqqer failed (exit status {child.exitcode})")
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()
    seconds = time.perf_counter() - start
    if kind == "decided":
        return BloqqerRun("decided", bool(payload), seconds=seconds)
    prefix, clauses = payload
    return BloqqerRun("formula", None, tuple(prefix), tuple(tuple(c) for c in clauses), seconds)


def bloqqer(formula: Qdimacs, timeout: float | None = None) -> Preprocessed:
    """Bloqqer on `formula` (in a killable child), its result checked and, if
    need be, repaired; see the module docstring."""
    start = time.perf_counter()
    formula = bloqqer_input(formula)
    if not formula.clauses or any(not clause for clause in formula.clauses):
        verdict = not formula.clauses
        return Preprocessed("decided", verdict, None, time.perf_counter() - start, "decided before preprocessing")
    run = run_bloqqer(formula, timeout)
    seconds = time.perf_counter() - start
    if run.status in ("timeout", "error"):
        return Preprocessed(run.status, None, None, seconds, run.note)
    if run.status == "decided":
        verdict = bool(run.verdict)
        return Preprocessed("decided", verdict, None, seconds, f"Bloqqer decided the formula ({'true' if verdict else 'false'})")
    repair = repair_prefix(formula, list(run.prefix), [list(c) for c in run.clauses])
    if repair.formula is None:
        return Preprocessed("fallback", None, None, seconds, f"Bloqqer's result not used: {repair.problem}")
    if repair.missing:
        note = (
            f"Bloqqer's prefix left out {repair.missing} clause variables "
            f"({repair.created} of them new); prefix repaired"
        )
        return Preprocessed("repaired", None, repair.formula, seconds, note)
    return Preprocessed("complete", None, repair.formula, seconds, "Bloqqer's prefix was complete")
