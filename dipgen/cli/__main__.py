"""`python -m dipgen.cli`: the `dipgen` command without its console script."""

import sys

from dipgen.cli import main

sys.exit(main())
