"""Headless commands. Their names, options, JSON keys and exit codes are a contract
for scripts (README "Command line", docs/cli.md).

``docbatch [--data-dir DIR] process PATH... [--mode offline|sync|batch] [--wait] [--force]``
``docbatch [--data-dir DIR] jobs [--json]``
``docbatch [--data-dir DIR] documents [--job ID] [--json]``
``docbatch doctor``
``docbatch [--data-dir DIR] registry import|search|results|export …`` (cli/registry.py)

The parser is in ``parser.py``, the commands in ``commands.py`` and ``registry.py``,
what they print in ``output.py``, and how an error ends the command in ``errors.py``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Sequence

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.log_file import log_to_file
from docbatch_gui.cli.commands import COMMANDS, cmd_doctor
from docbatch_gui.cli.errors import TerminalFilter, debug_requested, report
from docbatch_gui.cli.output import Language
from docbatch_gui.cli.parser import build_parser
from docbatch_gui.i18n import current_language, set_language
from docbatch_gui.settings.checks import check_settings
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import ScrubbingFilter

__all__ = ["COMMANDS", "build_parser", "main"]

#: the stderr log handler of the last ``main`` call in this process (tests call it often)
_terminal_handler: logging.Handler | None = None


def _setup_logging(settings: Settings, verbosity: int) -> None:
    global _terminal_handler
    root = logging.getLogger()
    root.setLevel(logging.DEBUG)
    if _terminal_handler is not None:
        root.removeHandler(_terminal_handler)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(
        logging.WARNING if verbosity == 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    )
    console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    console.addFilter(ScrubbingFilter())
    console.addFilter(TerminalFilter())
    root.addHandler(console)
    _terminal_handler = console
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per HTTP call is noise
    log_to_file(settings)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every way it can end is an exit code (see ``ExitCode``)."""
    args = build_parser().parse_args(argv)  # a wrong command line exits 2 here
    debug = debug_requested(args.debug)
    settings: Settings | None = None
    app = None
    before = current_language()  # an in-process caller (a test) keeps its own language
    Language.choose(args.lang, "", os.environ)  # until the settings are read
    try:
        overrides = {"data_dir": args.data_dir} if args.data_dir else {}
        settings = check_settings(load_settings(**overrides), overrides)
        Language.choose(args.lang, settings.language, os.environ)
        _setup_logging(settings, args.verbose)
        if args.command == "doctor":
            return cmd_doctor(settings, args)
        app = DocBatchApp(settings)
        return COMMANDS[args.command](app, args)
    except (Exception, KeyboardInterrupt) as exc:
        return report(exc, settings=settings, command=_command_name(args), debug=debug)
    finally:
        if app is not None:
            with contextlib.suppress(Exception):
                app.close()
        set_language(before)


def _command_name(args: object) -> str:
    """``registry export``, not just ``registry``: the sentence names what failed."""
    names = [getattr(args, "command", None), getattr(args, "registry_command", None)]
    return " ".join(n for n in names if n) or "docbatch"
