"""`python -m compiler.cli`: the same as the `bddlc` command."""

import sys

from . import main

sys.exit(main())
