"""``python -m docbatch_gui``: the desktop application (``docbatch`` is the CLI)."""

from __future__ import annotations

import sys


def main() -> int:
    from docbatch_gui._qt.main import main as gui_main

    return gui_main()


if __name__ == "__main__":
    sys.exit(main())
