"""``python -m docbatch_gui.cli``: the ``docbatch`` command, as tests and children run it."""

from __future__ import annotations

import sys

from docbatch_gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
