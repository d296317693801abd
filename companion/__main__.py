"""``python -m companion`` is the ``companion`` command."""

import sys

from companion.cli.main import main

sys.exit(main())
