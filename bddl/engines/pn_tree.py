"""The server's proof-number tree of the parallel proof-number search (PPN²).

The main algorithm of the race-patterns paper (its §2.3, Algorithm 1)
without the messaging, which `compiler.solving.search.ppn2` does on Dask (and the
tests do in-process): the tree, whose leaves are searched by jobs
(`bddl.engines.pn_job`), and what the server does on each event.

* `next_job` picks a most-proving leaf that no job is searching and
  reserves it.  As in the paper, a reserved leaf is flagged, not given a
  virtual loss: a node is lost only once proved lost, so 0 and infinity stay
  attractors and partial results fit.  The search for a free leaf
  backtracks over the choice points, the nodes with several children of
  minimal number (proof number where Black moves, disproof number where
  White does).  When every most-proving leaf is reserved, the paper leaves
  the worker idle; `spread=True` (the default) then takes the best free
  leaf under a second-best child instead, since on two cores an idle
  worker is half the machine (measured in docs/benchmarks.md).
* `partial` sets a reserved leaf's numbers from its job's root and updates
  its ancestors; `final` does too and expands the leaf with the successors
  and numbers the job returns (each a "touched" node), unless the job
  solved it.  The server never generates a move: it needs no game rules.
* `lost` releases a leaf whose job will not report (its worker died).
* A second kind of job (the job-level search of the paper's §2.2 with a
  specialised solver at the leaves): with `qbf_at`, a leaf it accepts gets
  a verdict job first (a QBF solver on the leaf's formula with a time
  slice, or the single-process search with a budget of positions:
  `compiler.solving.search.ppn2`), never the root.  `verdict` takes its
  answer: proved or disproved solves the leaf; unknown leaves the leaf's
  numbers as they were and releases it, and a leaf is given at most one
  verdict job (marked when it is handed out), so the next job on it is a
  df-pn, which expands it.  A verdict changes no number except by solving.
* The tree is bounded: `TreeTooLarge` when an expansion would take it past
  `max_nodes`.  A result whose numbers cannot be a search's (negative,
  both zero, a solved pair other than (0, inf)) raises `GarbageResult`:
  an error, never a verdict.

Numbers on the server are Black's: pn is the proof number of "Black wins",
dn its disproof number; Black's nodes take the minimal pn and the sum of
dn, White's the sum of pn and the minimal dn (with (p,q) turns a node's
mover is the job's, not an alternation).  Solved positions are remembered
by board with the plies-left monotonicity of df-pn's table, so a solved
transposition met on expansion is not searched again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .pn_job import JobResult, Position
from .pns import INF

DEFAULT_MAX_NODES = 5_000_000
# about what one node costs in memory (measured: a `Node` with its slots and boxed ints, in a parent's list)
NODE_BYTES = 200


class TreeTooLarge(Exception):
    """Expanding a leaf would take the server's tree past its bound."""

    def __init__(self, nodes: int, max_nodes: int):
        super().__init__(f"the proof-number tree would exceed {max_nodes:,} nodes (it has {nodes:,}); raise --max-memory")
        self.nodes = nodes
        self.max_nodes = max_nodes


class GarbageResult(Exception):
    """A job's result is not what a proof-number search can return."""


class Node:
    __slots__ = ("black_to_move", "b", "w", "r", "pn", "dn", "parent", "children", "job", "winning_child", "verdict_tried")

    def __init__(self, black_to_move: bool, b: int, w: int, r: int, pn: int, dn: int, parent: Node | None):
        self.black_to_move = black_to_move
        self.b = b
        self.w = w
        self.r = r
        self.pn = pn  # Black's proof number (0: Black wins)
        self.dn = dn  # Black's disproof number (0: Black loses)
        self.parent = parent
        self.children: list[Node] | None = None  # None: a leaf
        self.job: int | None = None  # the job searching this leaf (the paper's flag)
        self.winning_child: tuple[int, int] | None = None  # a solved leaf's winning successor, from its job
        self.verdict_tried = False  # a verdict job was handed this leaf (it gets no second one)

    @property
    def position(self) -> Position:
        return self.black_to_move, self.b, self.w, self.r

    @property
    def solved(self) -> bool:
        return self.pn == 0 or self.dn == 0


@dataclass(frozen=True)
class TreeStatistics:
    expanded: int  # nodes given children (each after one job)
    touched: int  # nodes created
    jobs: int  # jobs handed out
    partials: int  # partial results taken
    positions: int  # positions expanded by all finished jobs
    lost: int  # jobs released because their worker died
    verdict_jobs: int = 0  # of `jobs`, those asking a verdict (QBF or the single-process search at the leaves)
    verdicts: int = 0  # verdict jobs that solved their leaf (the others returned unknown)


def black_numbers(black_to_move: bool, phi: int, delta: int) -> tuple[int, int]:
    """(pn, dn) for Black from a node's (phi, delta) for its mover."""
    return (phi, delta) if black_to_move else (delta, phi)


def check_numbers(phi, delta, what: str) -> None:
    """A pair a df-pn can return: integers in [0, INF], solved only as (0, INF) or (INF, 0)."""
    if type(phi) is not int or type(delta) is not int:  # (bool is no number here)
        raise GarbageResult(f"{what}: numbers ({phi!r}, {delta!r}) are not integers")
    if not (0 <= phi <= INF and 0 <= delta <= INF):
        raise GarbageResult(f"{what}: numbers ({phi}, {delta}) out of range")
    if (phi == 0 and delta != INF) or (delta == 0 and phi != INF):
        raise GarbageResult(f"{what}: ({phi}, {delta}) is neither solved nor open")
    if (phi == INF) != (delta == 0) or (delta == INF) != (phi == 0):
        raise GarbageResult(f"{what}: ({phi}, {delta}) is neither solved nor open")


class PnTree:
    """The server's tree (Algorithm 1's state); see the module docstring."""

    def __init__(
        self,
        root: Position,
        max_nodes: int = DEFAULT_MAX_NODES,
        spread: bool = True,
        qbf_at: Callable[[Position], bool] | None = None,
    ):
        self.root = Node(*root, 1, 1, None)
        self.max_nodes = max(max_nodes, 1)
        self.spread = spread
        self.qbf_at = qbf_at  # which leaves get a verdict job first (None: none)
        self.verdict_jobs: set[int] = set()  # the verdict jobs out
        self.verdict_count = 0
        self.verdicts_found = 0
        self.nodes = 1
        self.expanded = 0
        self.jobs = 0
        self.partials = 0
        self.positions = 0
        self.lost_jobs = 0
        self.out: dict[int, Node] = {}  # job -> its leaf
        # (black to move, b, w) -> [smallest r Black wins with, largest r Black loses with]
        self.solved_boards: dict[tuple[bool, int, int], list[int]] = {}

    # -- the answer ----------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.root.solved

    @property
    def black_wins(self) -> bool | None:
        return True if self.root.pn == 0 else False if self.root.dn == 0 else None

    def winning_successor(self) -> tuple[int, int] | None:
        """The root mover's winning successor board, once the mover is proved to win."""
        root = self.root
        if not root.solved or (root.pn == 0) != root.black_to_move:
            return None
        if root.children is None:
            return root.winning_child
        for child in root.children:
            if (child.pn == 0) == root.black_to_move and child.solved:
                return child.b, child.w
        return None

    def statistics(self) -> TreeStatistics:
        return TreeStatistics(self.expanded, self.nodes, self.jobs, self.partials, self.positions, self.lost_jobs,
                              self.verdict_count, self.verdicts_found)

    # -- events --------------------------------------------------------------

    def next_job(self) -> tuple[int, Position] | None:
        """Reserve a most-proving free leaf for a job: (job, its position); None if none is free."""
        if self.done:
            return None
        leaf = self._select(ties_only=True)
        if leaf is None and self.spread:
            leaf = self._select(ties_only=False)
        if leaf is None:
            return None
        self.jobs += 1
        leaf.job = self.jobs
        self.out[self.jobs] = leaf
        if self.qbf_at is not None and not leaf.verdict_tried and leaf is not self.root and self.qbf_at(leaf.position):
            leaf.verdict_tried = True
            self.verdict_jobs.add(self.jobs)
            self.verdict_count += 1
        return self.jobs, leaf.position

    def is_verdict_job(self, job: int) -> bool:
        """Does the job ask a verdict (QBF at the leaf) rather than run a df-pn?"""
        return job in self.verdict_jobs

    def wanted(self, job: int) -> bool:
        """Is the job's leaf still open, under no solved node?"""
        node = self.out.get(job)
        while node is not None:
            if node.solved:
                return False
            node = node.parent
        return job in self.out

    def partial(self, job: int, phi: int, delta: int) -> None:
        """A job's partial result: its root's numbers so far (ignored once the job is over)."""
        leaf = self.out.get(job)
        check_numbers(phi, delta, f"job {job}'s partial result")
        if job in self.verdict_jobs:
            raise GarbageResult(f"a partial result for job {job}, which asked a verdict")
        if leaf is None or leaf.children is not None:
            return
        if phi == 0 or delta == 0:
            raise GarbageResult(f"job {job}'s partial result is solved: only a final result may be")
        self.partials += 1
        leaf.pn, leaf.dn = black_numbers(leaf.black_to_move, phi, delta)
        self._update_ancestors(leaf.parent)

    def final(self, job: int, result: JobResult) -> None:
        """A job's final result: the leaf is solved, or expanded with the successors the job returns."""
        if job in self.verdict_jobs:
            raise GarbageResult(f"a df-pn result for job {job}, which asked a verdict")
        leaf = self.out.pop(job, None)
        if leaf is None:
            raise GarbageResult(f"a final result for job {job}, which is not out")
        leaf.job = None
        self._check_result(job, result, leaf)
        self.positions += result.positions
        if leaf.children is not None or self._under_solved(leaf):
            return  # a job that was no longer wanted: what it says is known
        black_to_move = leaf.black_to_move
        if result.phi == 0 or result.delta == 0:
            leaf.pn, leaf.dn = black_numbers(black_to_move, result.phi, result.delta)
            leaf.winning_child = result.winning_child
            self._remember(leaf)
        else:
            self._expand(leaf, result.children)
        self._update_ancestors(leaf.parent)

    def verdict(self, job: int, black_wins: bool | None, positions: int = 0) -> None:
        """A verdict job's answer: Black wins (True), loses (False) from the leaf, or unknown (None:
        the slice or the budget ran out; the leaf keeps its numbers and its next job is a df-pn);
        and the positions it expanded (a search leaf job's; a QBF job expands none)."""
        if job not in self.verdict_jobs:
            raise GarbageResult(f"a verdict for job {job}, which did not ask one")
        if black_wins is not None and type(black_wins) is not bool:
            raise GarbageResult(f"job {job}'s verdict {black_wins!r} is not True, False or None")
        if type(positions) is not int or positions < 0:
            raise GarbageResult(f"job {job}'s positions {positions!r} are not a count")
        self.positions += positions
        self.verdict_jobs.discard(job)
        leaf = self.out.pop(job)
        leaf.job = None
        if black_wins is None or leaf.children is not None or self._under_solved(leaf):
            return
        self.verdicts_found += 1
        leaf.pn, leaf.dn = (0, INF) if black_wins else (INF, 0)
        self._remember(leaf)
        self._update_ancestors(leaf.parent)

    def lost(self, job: int) -> None:
        """The job will not report (its worker died): its leaf is free for another job."""
        self.verdict_jobs.discard(job)
        leaf = self.out.pop(job, None)
        if leaf is not None:
            leaf.job = None
            self.lost_jobs += 1

    # -- the tree ------------------------------------------------------------

    def _select(self, ties_only: bool) -> Node | None:
        """A most-proving leaf with no job, by depth-first backtracking over the children of
        minimal number (all children, best first, when not `ties_only`)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.solved:
                continue
            if node.children is None:
                if node.job is None:
                    return node
                continue
            open_children = [c for c in node.children if not c.solved]
            if not open_children:
                continue
            if node.black_to_move:
                key = lambda c: c.pn  # noqa: E731
            else:
                key = lambda c: c.dn  # noqa: E731
            if ties_only:
                least = min(key(c) for c in open_children)
                candidates = [c for c in open_children if key(c) == least]
            else:
                candidates = sorted(open_children, key=key)
            stack.extend(reversed(candidates))  # the first candidate is tried first
        return None

    def _expand(self, leaf: Node, children: Iterable[tuple[int, int, int, int, bool]]) -> None:
        children = list(children)
        if self.nodes + len(children) > self.max_nodes:
            raise TreeTooLarge(self.nodes + len(children), self.max_nodes)
        r = leaf.r - 1
        nodes = []
        for b, w, phi, delta, mover in children:
            node = Node(mover, b, w, r, *black_numbers(mover, phi, delta), leaf)
            known = self._known(mover, b, w, r)
            if known is not None:
                node.pn, node.dn = (0, INF) if known else (INF, 0)
            nodes.append(node)
        leaf.children = nodes
        self.nodes += len(nodes)
        self.expanded += 1
        self._set_numbers(leaf)
        if leaf.solved:
            self._remember(leaf)

    def _set_numbers(self, node: Node) -> None:
        children = node.children
        assert children
        if node.black_to_move:
            node.pn = min(c.pn for c in children)
            node.dn = min(sum(c.dn for c in children), INF)
            if node.pn == 0:
                node.dn = INF
        else:
            node.dn = min(c.dn for c in children)
            node.pn = min(sum(c.pn for c in children), INF)
            if node.dn == 0:
                node.pn = INF
        if node.pn and node.dn:  # open: capped below INF, which means solved
            node.pn = min(node.pn, INF - 1)
            node.dn = min(node.dn, INF - 1)

    def _update_ancestors(self, node: Node | None) -> None:
        while node is not None:
            before = node.pn, node.dn
            self._set_numbers(node)
            if node.solved:
                self._remember(node)
            if (node.pn, node.dn) == before:
                return
            node = node.parent

    def _under_solved(self, node: Node) -> bool:
        above = node.parent
        while above is not None:
            if above.solved:
                return True
            above = above.parent
        return False

    def _remember(self, node: Node) -> None:
        entry = self.solved_boards.setdefault((node.black_to_move, node.b, node.w), [INF, 0])
        if node.pn == 0:
            entry[0] = min(entry[0], node.r)
        else:
            entry[1] = max(entry[1], node.r)

    def _known(self, black_to_move: bool, b: int, w: int, r: int) -> bool | None:
        from .minimax import table_verdict

        return table_verdict(self.solved_boards.get((black_to_move, b, w)), r)

    def _check_result(self, job: int, result: JobResult, leaf: Node) -> None:
        what = f"job {job}'s final result"
        if not isinstance(result, JobResult):
            raise GarbageResult(f"{what} is a {type(result).__name__}, not a JobResult")
        check_numbers(result.phi, result.delta, what)
        if type(result.positions) is not int or result.positions < 0:
            raise GarbageResult(f"{what}: positions {result.positions!r}")
        if result.phi and result.delta:
            if not result.children:
                raise GarbageResult(f"{what}: an open position without successors")
            if leaf.r < 2:
                raise GarbageResult(f"{what}: an open position with {leaf.r} plies left")
            for child in result.children:
                if len(child) != 5 or type(child[4]) is not bool or any(type(x) is not int or x < 0 for x in child[:2]):
                    raise GarbageResult(f"{what}: a successor {child!r} is not (b, w, phi, delta, mover)")
                check_numbers(child[2], child[3], what)
        elif result.children:
            raise GarbageResult(f"{what}: a solved position with successors")
