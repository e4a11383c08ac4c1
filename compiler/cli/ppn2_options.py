"""PPN²'s command-line options (`bddlc search --algorithm ppn2 --workers ...`), checked and turned
into the `compiler.solving.search.ppn2.Ppn2Options` the search takes: the search reads no
argparse namespace."""

from __future__ import annotations

PPN2_OPTIONS = ("workers", "scheduler", "job_descents", "partial_every", "leaf_jobs", "qbf_slice", "leaf_positions", "share_tables")


def misplaced_option(args) -> str | None:
    """Why the command line's PPN² options do not fit (None: they do)."""
    given = [name for name in PPN2_OPTIONS if getattr(args, name, None) is not None]
    if given and args.algorithm != "ppn2":
        return f"--{given[0].replace('_', '-')} needs --algorithm ppn2"
    if args.qbf_slice is not None and args.leaf_jobs not in ("qbf", "mixed"):
        return "--qbf-slice needs --leaf-jobs qbf or mixed"
    if args.leaf_positions is not None and args.leaf_jobs not in (None, "search"):
        return "--leaf-positions needs --leaf-jobs search"
    if args.workers is not None and args.scheduler is not None:
        return "--workers starts a local cluster; --scheduler uses another one: give one of them"
    return None


def ppn2_options(args):
    """The search's options from the command line's (the progress and statistics to stderr)."""
    from ..solving.search.ppn2 import Ppn2Options

    return Ppn2Options(**{name: getattr(args, name, None) for name in PPN2_OPTIONS}, max_memory=args.max_memory)
