"""`python -m bench`: see bench.cli."""

import sys

from .cli import main

sys.exit(main())
