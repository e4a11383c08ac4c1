"""`bddlc export DOMAIN PROBLEM -o GAME.pg`: a positional BDDL model as a `.pg` game."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_OK, add_model_arguments, cannot_write, open_game, refuse_unwritable


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc export",
        description="Write a positional BDDL model (each side claims any open cell; goals of own cells, "
        "as domains/positional.bddl) as a positional game in the .pg format (docs/positional.md): "
        "its cells, the plies as time points, both sides' winning sets and the initial stones.",
        epilog="example:\n  bddlc export domains/positional.bddl problems/httt/tic_4x4_d5.bddl -o tic.pg",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of time points)")
    p.add_argument("-o", "--output", metavar="GAME", help="the .pg file to write (default: standard output)")
    return p


def run(args) -> int:
    from bddl.pg.writer import save_pg, write_pg

    parser = build_parser()
    model = open_game(args, parser, print_warnings=True)
    refusal = model.export_refusal()
    if refusal is not None:
        parser.error(refusal)
    if args.output:
        refuse_unwritable(args.output, ".pg")  # a folder, or a missing one, before the export: said with its fix, no traceback
    exported = model.as_positional_game(args.depth)
    if exported.warning is not None:
        print(exported.warning.render(), file=sys.stderr)
    if args.output:
        try:
            save_pg(exported.game, args.output, exported.comments)
        except OSError as exc:
            raise cannot_write(args.output, exc, ".pg") from None
    else:
        sys.stdout.write(write_pg(exported.game, exported.comments))
    return EXIT_OK
