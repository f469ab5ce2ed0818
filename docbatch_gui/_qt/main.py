"""Start-up: QApplication, the qasync loop, the window first, slow work after.

The window is shown before anything slow happens (opening the store, loading the
queue, starting the engine), so the operator sees it at once.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import sys
from collections.abc import Sequence

from docbatch_gui.domain.errors import ConfigError

log = logging.getLogger(__name__)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="docbatch-gui", description="DocBatch desktop")
    parser.add_argument("--data-dir", help="where the queue lives (DOCBATCH_DATA_DIR)")
    parser.add_argument("--lang", choices=["en", "ru"], help="interface language")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="start offscreen, process one bundled sample offline, exit 0 on success",
    )
    parser.add_argument(
        "--screenshot-dir", help=argparse.SUPPRESS
    )  # tests and docs: grab every tab once started
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        from docbatch_gui._qt.self_test import run_self_test

        return run_self_test()
    return run_gui(args)


def run_gui(args: argparse.Namespace) -> int:
    import qasync
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    from docbatch_gui._qt.i18n import chosen_language, install_translator
    from docbatch_gui.config import load_settings

    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qapp, QApplication)
    qapp.setApplicationName("DocBatch")
    qapp.setOrganizationName("DocBatch")
    qapp.setQuitOnLastWindowClosed(False)
    qsettings = QSettings()
    install_translator(qapp, chosen_language(qsettings, args.lang))
    overrides = {"DOCBATCH_DATA_DIR": args.data_dir} if args.data_dir else {}
    try:
        settings = load_settings(**overrides)
    except ConfigError as exc:
        QMessageBox.critical(None, "DocBatch", str(exc))
        return 2
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    window = build_window(settings, qsettings)
    window.show()
    with loop:
        loop.run_until_complete(run_window(window))
    return 0


def build_window(settings: object, qsettings: object) -> object:
    """The window and what it needs; importable by tests and the self-test."""
    from docbatch_gui._qt.bridge import EngineBridge
    from docbatch_gui._qt.context import GuiContext
    from docbatch_gui._qt.log_panel import install_log_handler
    from docbatch_gui._qt.notify import Notifier
    from docbatch_gui._qt.window import MainWindow
    from docbatch_gui.app import DocBatchApp
    from docbatch_gui.config import Settings

    assert isinstance(settings, Settings)
    app = DocBatchApp(settings)
    ctx = GuiContext(
        app=app,
        bridge=EngineBridge(app),
        notifier=Notifier(),
        qsettings=qsettings,  # type: ignore[arg-type]
        operator=operator_name(),
    )
    window = MainWindow(ctx)
    window.log_handler = install_log_handler(window.log_panel)
    return window


async def run_window(window: object) -> None:
    """Start the window's slow work, then wait until it closed."""
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    window.closed.connect(lambda: closed.done() or closed.set_result(None))
    await window.start()
    await closed
    window.ctx.app.close()


def operator_name() -> str:
    try:
        return os.environ.get("DOCBATCH_OPERATOR") or getpass.getuser()
    except Exception:  # no login name (some containers)
        return "operator"
