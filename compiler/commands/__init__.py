"""One module per `bddlc` command.

Each module defines `build_parser() -> argparse.ArgumentParser` and
`run(args) -> int` (the exit status).  `compiler.cli` imports a command's
module only when that command is used, so `bddlc search` never pays for the
QBF machinery and a compile never pays for the solvers.
"""
