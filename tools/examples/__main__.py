"""python -m tools.examples: (re)write the example games under games/ (see the package's docstring)."""

import sys

from .cli import main

sys.exit(main())
