"""`bddlc certify`: the independent checker's verdict on a certificate (compiler.certificates.check)."""

from __future__ import annotations

import argparse
import json
import sys

from .common import limits_of, EXIT_INPUT, EXIT_OK, EXIT_USAGE, paragraph, positive_int

EXIT_INVALID = 4  # the certificate does not prove its claim about this game


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc certify",
        description=paragraph("Check a strategy certificate (docs/certificates.md) against the game it is about: "
        "replay the strategist's strategy against every move of the other side with the rules of the game "
        "alone, with no search, encoding or solver, and say whether it proves its claim, or show the first "
        "invalid node, the line of play that reaches it and its position."),
        epilog="exit status: 0 the certificate is valid, 4 it is invalid (the first fault shown), 1 bad input "
        "(a game file or the certificate cannot be read, or is not a certificate), 2 usage error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", metavar="GAME", nargs="+", help="the game's files: DOMAIN PROBLEM, or a positional game GAME.pg")
    p.add_argument("certificate", metavar="CERTIFICATE", help="the certificate (a JSON file)")
    p.add_argument("--depth", type=positive_int, metavar="N", help="the depth the verdict is about, if not the game file's")
    p.add_argument("--max-board-side", type=positive_int, metavar="N", help="refuse BDDL boards wider or higher than N (default 1000; a .pg game has cells, not sides)")
    p.add_argument("--max-depth", type=positive_int, default=10_000, metavar="N", help="refuse depths above N (default 10000)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def run(args) -> int:

    from ..certificates.check import CertificateFormatError, check_files
    from ..model import ModelPathsError, open_model

    try:
        model = open_model(args.game, depth=args.depth, limits=limits_of(args, build_parser()))
    except ModelPathsError as exc:
        build_parser().print_usage(sys.stderr)
        print(f"bddlc certify: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for diagnostic in model.warnings:
        print(diagnostic.render(), file=sys.stderr)
    try:
        verdict = check_files(model, args.certificate)
    except CertificateFormatError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INPUT
    if args.json:
        from ..schema import SCHEMA_VERSION
        from .common import game_json

        print(json.dumps({"schema": SCHEMA_VERSION, "command": "certify", **game_json(model), "valid": verdict.valid,
                          "claim": verdict.claim, "depth": verdict.depth, "nodes": verdict.nodes,
                          "pairings": verdict.pairings, "reason": verdict.reason or None, "line": list(verdict.line), "board": verdict.board or None}))
    else:
        print(verdict.report())
    return EXIT_OK if verdict.valid else EXIT_INVALID
