"""``python -m docbatch_gui`` and ``docbatch-gui``: the desktop application (``docbatch``
is the CLI).

Qt comes with the ``gui`` extra; without it this says so in one line rather than
failing on the first ``import PySide6`` deep inside the window code.
"""

from __future__ import annotations

import sys

from docbatch_gui._qt.main import main as gui_main
from docbatch_gui.extras import MissingExtra, require


def main() -> int:
    try:
        require("gui", "PySide6", "The DocBatch window")
        require("gui", "qasync", "The DocBatch window")
    except MissingExtra as exc:
        print(f"docbatch-gui: {exc} (the CLI, docbatch, works without it)", file=sys.stderr)
        return 2
    return gui_main()


if __name__ == "__main__":
    sys.exit(main())
