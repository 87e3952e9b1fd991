"""`python -m pdn` runs the command-line tool."""

import sys

from pdn.cli.main import main

sys.exit(main())
