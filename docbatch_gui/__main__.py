"""``python -m docbatch_gui``: the desktop application.

The GUI arrives in a later version; until then this explains the headless CLI.
"""

from __future__ import annotations

import sys

USAGE = """DocBatch {version}

The desktop window is not part of this version yet. Use the command line:

  docbatch process PATH... --wait     queue files or folders and process them
  docbatch jobs                       list jobs and their states
  docbatch documents [--job ID]       list the documents found
  docbatch doctor                     check the configuration

Add --json to jobs/documents for machine-readable output; see docbatch --help.
"""


def main() -> int:
    from docbatch_gui import __version__

    print(USAGE.format(version=__version__))
    return 0


if __name__ == "__main__":
    sys.exit(main())
