"""The `bddlc` command line: a dispatcher over one module per command.

Each command's module here defines `build_parser() -> argparse.ArgumentParser`
and `run(args) -> int` (the exit status).  `main` imports a command's module
only when that command is used, so `bddlc search` never pays for the QBF
machinery and a compile never pays for the solvers.

Exit statuses are part of the interface (docs/cli.md): 0 success, 1 a bad
model or input file, 2 a usage error (argparse's), 3 a search that ran out
of budget, 4 a strategy validation that found a failing line, 130
interrupted (Ctrl-C), 143 and 129 ended by SIGTERM and SIGHUP (128 + the
signal's number, after killing every solver child); `solve` and `depth` add
the QBF convention 10 (Black wins) / 20 (no winning strategy) / 0 (unknown).  A bad model never
produces a traceback; an internal error keeps its traceback, because that is
a bug for us to fix.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from typing import Sequence

from ..solving.processes.processes import Terminated, exit_status, terminations_interrupt
from .common import EXIT_BROKEN_PIPE, EXIT_BUDGET, EXIT_INPUT, EXIT_OK, EXIT_USAGE, version

# command name -> (its module in this package, one-line summary)
COMMANDS: dict[str, tuple[str, str]] = {
    "compile": ("compile", "compile to QCIR or QDIMACS (the default: `bddlc DOMAIN PROBLEM` compiles)"),
    "search": ("search", "decide the game by explicit game-tree search"),
    "solve": ("solve", "decide the game (a QBF solver and the explicit search raced) and show Black's first winning move"),
    "depth": ("depth", "find the critical depth: the fewest moves in which Black wins"),
    "play": ("play", "play White against bddlc's Black on the terminal (or from standard input)"),
    "validate": ("validate", "check bddlc's Black strategy against every White reply with the game engine"),
    "regress": ("regress", "check a folder of models against a manifest of expected answers (CI regression)"),
    "certify": ("certify", "check a strategy certificate with the rules of the game alone (no search, no solver)"),
    "export": ("export", "write a positional BDDL model as a positional game (.pg)"),
    "check": ("check", "check the model against the paper's sanity conditions (by SAT), and warn of dead parts"),
    "show": ("show", "draw the game as SVG (model sheet, a position) or a strategy certificate as an HTML explorer"),
}

DESCRIPTION = """\
Compile a BDDL game (a domain file and a problem file) or a positional game
(one GAME.pg file) into a quantified Boolean formula that is true iff Black
has a winning strategy of at most `depth` moves, and solve, search and check
such games: every command takes either kind."""


def _epilog() -> str:
    width = max(map(len, COMMANDS))
    lines = ["commands:"]
    lines += [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += [
        "",
        "examples:",
        "  bddlc domains/positional.bddl problems/httt/tic_3x3_d9.bddl -o tic.qcir",
        "  bddlc search domains/domineering.bddl problems/domineering/3x3_d4.bddl",
        "  bddlc solve domains/positional.bddl problems/httt/tic_4x4_d5.bddl",
        "  bddlc depth domains/connect.bddl problems/connect/connect3_4x4_d9.bddl",
        "",
        "Run `bddlc COMMAND --help` for a command's options.  Exit status: 0 ok,",
        "1 bad input (with file:line:col diagnostics), 2 usage error, 3 search budget",
        "exhausted, 4 validation failed; solve and depth: 10 Black wins, 20 no",
        "winning strategy, 0 unknown.",
    ]
    return "\n".join(lines)


def _core_status() -> str:
    """Whether the compiled search core is built (docs/engines-core.md): an install without a C++
    compiler has none, and says so here."""
    from bddl.engines.compiled import status

    return status()


def _top_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc",
        description=DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"bddlc {version()}\n{_core_status()}")
    return p


def _misspelt_command(word: str) -> None:
    """`bddlc slove A B` would compile a domain named `slove`: a usage error
    naming the command meant, when `word` is no file and is close to a command."""
    import os

    from bddl.suggest import candidates

    if word.startswith("-") or os.path.exists(word):
        return
    close = candidates(word, COMMANDS, cutoff=0.75)
    if close:
        _top_parser().error(f"no command or file named '{word}'; did you mean '{close[0]}'?")


def _misspelt_options(parser: argparse.ArgumentParser, rest: Sequence[str], mistaken: dict[str, str] | None = None) -> None:
    """Argparse says only "unrecognized arguments: --timout": name the option
    meant, when one is close (prefixes of an option stay argparse's to judge).
    `mistaken`: options another command has, which this one does not, with the
    fix a user of this command needs (`{value}` stands for the value given):
    the closest spelling is not always the option meant (`depth --depth 5`
    is close to --max-depth, a guard, where --max 5 was meant)."""
    from bddl.suggest import candidates

    known = [s for s in parser._option_string_actions if s.startswith("--")]
    for index, word in enumerate(rest):
        if word == "--":
            return
        if not word.startswith("--"):
            continue
        option = word.split("=", 1)[0]
        if mistaken and option in mistaken and option not in parser._option_string_actions:
            value = word.split("=", 1)[1] if "=" in word else rest[index + 1] if index + 1 < len(rest) else "N"
            parser.error(mistaken[option].format(value=value if value.isdigit() else "N"))
        if option in parser._option_string_actions:
            _misspelt_choice(parser, parser._option_string_actions[option], word, rest[index + 1 : index + 2])
            continue
        if any(s.startswith(option) for s in known):
            continue
        elsewhere = _commands_with(option, parser.prog)
        if elsewhere:
            parser.error(f"{option} is an option of {' and '.join(f'bddlc {c}' for c in elsewhere)}, not of {parser.prog}"
                         + OTHER_COMMANDS_NOTES.get((parser.prog, option), ""))
        close = candidates(option, known)
        if close:
            parser.error(f"unrecognized option {option}; did you mean {close[0]}?")


# What a user of one command needs who gives an option of another (`play --moves`): the way this command does it.
OTHER_COMMANDS_NOTES = {
    ("bddlc play", "--moves"): ": play reads White's moves at its prompt, one a line (piped: printf 'a1\\nb2\\n' | bddlc play GAME...)",
    ("bddlc solve", "--algorithm"): ": solve's search route picks its engine; to choose one, use bddlc search GAME... --algorithm ALGORITHM",
}


def _commands_with(option: str, prog: str) -> list[str]:
    """The other commands that have `option` exactly (`--moves` is show's), for an option this one lacks."""
    found = []
    for name, (module, _) in COMMANDS.items():
        if f"bddlc {name}" == prog or (name == "compile" and prog == "bddlc"):
            continue
        other = importlib.import_module(f".{module}", __package__).build_parser()
        if option in other._option_string_actions:
            found.append(name)
    return found


def _misspelt_choice(parser: argparse.ArgumentParser, action: argparse.Action, word: str, following: Sequence[str]) -> None:
    """Argparse lists the choices of a misspelt value (`--encoding explict`): name the one meant first."""
    from bddl.suggest import candidates

    if not action.choices or action.nargs not in (None, 1):
        return
    value = word.split("=", 1)[1] if "=" in word else following[0] if following else None
    if value is None or value.startswith("-") or value in action.choices:
        return
    close = [c for c in candidates(value, [str(c) for c in action.choices]) if c != value]
    if close:
        choices = ", ".join(f"'{c}'" for c in action.choices)
        parser.error(f"argument {'/'.join(action.option_strings)}: invalid choice: '{value}'; did you mean '{close[0]}'? (choose from {choices})")


def main(argv: Sequence[str] | None = None) -> int:
    from bddl.errors import BddlError

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        _top_parser().print_usage(sys.stderr)
        print("bddlc: error: give a domain and a problem file, or a command (see bddlc --help)", file=sys.stderr)
        return EXIT_USAGE
    if argv[0] in ("-h", "--help", "--version"):
        _top_parser().parse_args(argv)
        return EXIT_OK
    name, rest = (argv[0], argv[1:]) if argv[0] in COMMANDS else ("compile", argv)
    if name == "compile" and argv[0] != "compile":
        _misspelt_command(argv[0])
    command = importlib.import_module(f".{COMMANDS[name][0]}", __package__)
    parser = command.build_parser()
    _misspelt_options(parser, rest, getattr(command, "MISTAKEN_OPTIONS", None))
    args = parser.parse_args(rest)
    from bddl.budget import MemoryBudgetExceeded, set_memory_limit

    if getattr(args, "max_memory", None):
        set_memory_limit(args.max_memory)
    try:
        with terminations_interrupt():  # SIGTERM and SIGHUP unwind like Ctrl-C: solver children are killed
            return command.run(args)
    except BddlError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_INPUT
    except MemoryBudgetExceeded as exc:
        print(f"bddlc {name}: {exc}", file=sys.stderr)
        return EXIT_BUDGET
    except KeyboardInterrupt as exc:
        print("interrupted" if not isinstance(exc, Terminated) else f"terminated ({signal.Signals(exc.signal_number).name})", file=sys.stderr)
        return exit_status(exc)
    except BrokenPipeError:  # `bddlc ... | head`: the reader is gone, which is no error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the flush at exit fails no more
        return EXIT_BROKEN_PIPE
