"""`bddlc certify`: the independent checker's verdict on a certificate (compiler.certificates.check)."""

from __future__ import annotations

import argparse
import json
import sys

from .common import limits_of, EXIT_INPUT, EXIT_OK, EXIT_USAGE, paragraph, positive_int, refuse_missing_certificate

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


def _is_certificate(path: str) -> bool:
    """Does the file look like a certificate (JSON) rather than a game file?  A
    BDDL or .pg file never starts with '{'."""
    if path.lower().endswith(".json"):
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(64).lstrip().startswith("{")
    except OSError:
        return False


def _certificate_first(args) -> str | None:
    """The usage error for a certificate given before the game (the order of `show
    --certificate` and of most tools): the game files would be read as the
    certificate and the certificate as BDDL, and each reports the other's mistake."""
    import shlex

    if _is_certificate(args.certificate):
        return None
    given = [*args.game, args.certificate]
    certificates = [path for path in args.game if _is_certificate(path)]
    if not certificates:
        return None
    order = [path for path in given if path not in certificates] + certificates
    return ("the certificate comes last, after the game: bddlc certify GAME... CERTIFICATE, here "
            f"bddlc certify {' '.join(map(shlex.quote, order))}")


def _depth_fix(args, model, data) -> str:
    """What to do when the certificate is about another depth than the one asked:
    the certificate carries its depth, so the fix is to ask that one."""
    carried, asked = data["game"]["depth"], model.rules.depth
    if args.depth is None:
        return f"the certificate is about depth {carried}, not the game file's {asked}: add --depth {carried}"
    if _file_depth(args) == carried:
        return f"the certificate is about depth {carried}, not {asked}: drop --depth {args.depth} (the certificate carries its depth)"
    return f"the certificate is about depth {carried}, not {asked}: use --depth {carried} (the certificate carries its depth)"


def _other_files_fix(args, game) -> str:
    """Why a certificate of other files is invalid here, and what to run: the check against the files
    it names, where they are still as they were, or the game's own certificate written."""
    import shlex

    from ..certificates.check import file_hashes

    files = [str(f) for f in game["files"]]
    reason = f"the certificate belongs to other files ({', '.join(files)}): their sha256 differ from the files given"
    try:
        same = file_hashes(files) == list(game["sha256"])
    except OSError:
        same = False
    if same:
        return f"{reason}; check it against them: bddlc certify {' '.join(map(shlex.quote, [*files, args.certificate]))}"
    return (f"{reason} (or those files have changed since); write this game's own: "
            f"bddlc search {' '.join(map(shlex.quote, args.game))} --certificate FILE.json")


def _file_depth(args) -> int | None:
    from bddl.errors import BddlError

    from ..model import ModelPathsError, open_model

    try:
        return open_model(args.game, limits=limits_of(args, build_parser())).rules.depth
    except (BddlError, ModelPathsError, OSError):  # the file's own depth is past --max-depth: no hint from it
        return None


def run(args) -> int:

    from ..certificates.check import CertificateFormatError, check, file_hashes, read_certificate
    from ..model import ModelPathsError, open_model

    swapped = _certificate_first(args)
    if swapped is not None:
        build_parser().error(swapped)
    try:
        model = open_model(args.game, depth=args.depth, limits=limits_of(args, build_parser()))
    except ModelPathsError as exc:
        build_parser().print_usage(sys.stderr)
        print(f"bddlc certify: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for diagnostic in model.warnings:
        print(diagnostic.render(), file=sys.stderr)
    refuse_missing_certificate(args.certificate)
    try:
        data = read_certificate(args.certificate)
    except CertificateFormatError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INPUT
    hashes = file_hashes(model.paths)
    game = data["game"]
    if game["language"] == model.rules.language and list(game["sha256"]) == hashes and game["depth"] != model.rules.depth:
        from ..certificates.check import Verdict

        verdict = Verdict(False, data["claim"], model.rules.depth, len(data["nodes"]), _depth_fix(args, model, data))
    elif game["language"] == model.rules.language and list(game["sha256"]) != hashes:
        from ..certificates.check import Verdict

        verdict = Verdict(False, data["claim"], model.rules.depth, len(data["nodes"]), _other_files_fix(args, game))
    else:
        verdict = check(model.rules, data, hashes, model.checker_game())
    if args.json:
        from ..schema import SCHEMA_VERSION
        from .common import game_json

        print(json.dumps({"schema": SCHEMA_VERSION, "command": "certify", **game_json(model), "valid": verdict.valid,
                          "claim": verdict.claim, "depth": verdict.depth, "nodes": verdict.nodes,
                          "pairings": verdict.pairings, "at_once": verdict.at_once, "reason": verdict.reason or None, "line": list(verdict.line), "board": verdict.board or None}))
    else:
        print(verdict.report())
    return EXIT_OK if verdict.valid else EXIT_INVALID
