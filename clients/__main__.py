"""`python -m clients` is the `wargame` command."""

import sys

from clients.cli import main

sys.exit(main())
