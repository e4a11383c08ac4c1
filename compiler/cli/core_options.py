"""`bddlc search`'s --core and --knowledge, and `bddlc solve`'s --core (compiler.solving.search.core
chooses; docs/engines-core.md)."""

from __future__ import annotations

import argparse
import sys


def add_core_argument(parser: argparse.ArgumentParser, scope: str = "") -> None:
    """--core (`bddlc search`, and `bddlc solve` for its search route: `scope` says so)."""
    from ..solving.search.core import CORES

    parser.add_argument(
        "--core",
        choices=CORES,
        help=f"{scope}compiled: the compiled search core (C++; so far the minimax: on .pg games with any --knowledge, on BDDL games "
        "without --positional-rules; df-pn on BDDL games; PPN²'s search leaf jobs); "
        "python: the Python engines (default: compiled where it is built and can do what is asked, else python)",
    )


def add_core_arguments(parser: argparse.ArgumentParser) -> None:
    from ..solving.search.core import KNOWLEDGE

    add_core_argument(parser)
    parser.add_argument(
        "--knowledge",
        choices=KNOWLEDGE,
        default="full",
        help="on a .pg game, full: the positional solver's knowledge (threats, lost causes, pairings, relevance, "
        "symmetries); threats: the plain minimax with the one-move threats (two lose, one must be blocked); "
        "none: the plain memoised minimax, the rules and nothing else (default full)",
    )


def core_of(args, model, parser: argparse.ArgumentParser) -> str:
    """The core that searches: a refusal is a usage error (exit 2), a fallback a one-line note."""
    from ..solving.search.core import choose_core, knowledge_refusal

    why = knowledge_refusal(model, knowledge=args.knowledge, algorithm=args.algorithm)
    if why is not None:
        parser.error(why)
    if args.algorithm == "ppn2" and args.core == "compiled" and getattr(args, "leaf_jobs", None) not in (None, "search"):
        # the core runs PPN²'s search leaf jobs only (its df-pn and QBF jobs are Python's)
        parser.error("--core compiled with --algorithm ppn2 runs the search leaf jobs in the core: it needs --leaf-jobs search")
    choice = choose_core(model, asked=args.core, knowledge=args.knowledge, algorithm=args.algorithm,
                         positional_rules=getattr(args, "positional_rules", False))
    if choice.refusal is not None:
        parser.error(choice.refusal)
    if choice.note is not None:
        print(f"note: {choice.note}", file=sys.stderr)
    return choice.core


def solve_core_of(args, model, parser: argparse.ArgumentParser, engine: str) -> str | None:
    """`bddlc solve --core`: the core of its search route (None: the default, compiled where it
    can), as `bddlc search` chooses it for the route's own engine.  A usage error where it cannot
    apply: --engine qbf runs no search, and --core compiled where the core cannot run the engine."""
    from ..solving.routes import search_plan
    from ..solving.search.core import choose_core

    if args.core is None:
        return None
    if engine == "qbf":
        parser.error(f"--core chooses the search route's engine; --engine qbf runs no search: drop --core {args.core} "
                     "or use --engine auto or search")
    options = search_plan(model)[1]
    choice = choose_core(model, asked=args.core, knowledge="full", algorithm=options["algorithm"],
                         positional_rules=options.get("positional_rules", False))
    if choice.refusal is not None:
        parser.error(choice.refusal)
    return choice.core
