"""Start-up: QApplication, the qasync loop, the window first, slow work after.

The window is shown before anything slow happens (opening the store, loading the
queue, starting the engine), so the operator sees it at once.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import multiprocessing
import signal
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from docbatch_gui._qt.qt_libraries import check_before_qt
from docbatch_gui.domain.errors import ConfigError, DocBatchError
from docbatch_gui.domain.messages import Message
from docbatch_gui.frozen import dispatch_child
from docbatch_gui.storage.health import storage_error

if TYPE_CHECKING:
    from docbatch_gui._qt.loop import GuiLoop

#: when this module was first imported: the start of the window's clock
STARTED = time.monotonic()

log = logging.getLogger(__name__)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="docbatch-gui", description="DocBatch desktop")
    parser.add_argument(
        "files",
        nargs="*",
        help="files or folders to add to the queue (what the desktop's Open With passes)",
    )
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
    parser.add_argument(
        "--exit-after-show", action="store_true", help=argparse.SUPPRESS
    )  # bench/gui_responsiveness.py: print when the window was first painted, then exit
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    # In the frozen bundle, multiprocessing's spawn children and our isolated children
    # re-run this program: serve them before anything else (no Qt, no window).
    multiprocessing.freeze_support()
    argv = sys.argv[1:] if argv is None else list(argv)
    child_exit = dispatch_child(argv)
    if child_exit is not None:
        return child_exit
    args = parse_args(argv)
    problem = check_before_qt()  # Qt would abort with a paragraph about plugins
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    if args.self_test:
        # deferred: the self-test loads the window's modules (6 s); main() first serves --child
        #   starts, which need none
        from docbatch_gui._qt.self_test import run_self_test

        return run_self_test()
    return run_gui(args)


def _import_core_before_qt() -> None:
    """The window's core modules, imported before Qt: once PySide6 is imported, its
    import hook reads the source of every module that imports after it
    (``shibokensupport.feature``), which cost the first show 0.14 s of CPU for the
    facade's modules alone."""
    # deferred: 0.8 s of CPU (the facade), which --help and the frozen bundle's children skip
    import docbatch_gui.app.facade  # noqa: F401


def run_gui(args: argparse.Namespace) -> int:
    # No cyclic collection while starting: the imports and the window allocate about
    # 50,000 long-lived objects, and the collections they trigger cost the first show
    # 0.05-0.1 s of CPU. The heap is collected once and frozen after the window is
    # shown and the queue loaded (run_window); from then on GuiThreadCollector
    # collects on the GUI thread (gc stays disabled).
    gc.disable()
    _import_core_before_qt()
    # deferred: Qt and the window (PySide6 0.3 s, the window's modules 6 s): main() first serves
    #   --child starts without them
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    from docbatch_gui._qt.app_icon import dress
    from docbatch_gui._qt.build import build_window
    from docbatch_gui._qt.gc_guard import GuiThreadCollector
    from docbatch_gui._qt.i18n import chosen_language, install_translator
    from docbatch_gui._qt.language import interface_language
    from docbatch_gui._qt.loop import make_loop
    from docbatch_gui.settings.checks import check_settings
    from docbatch_gui.settings.loading import load_settings

    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qapp, QApplication)
    qapp.setApplicationName("DocBatch")
    qapp.setOrganizationName("DocBatch")
    dress(qapp)  # the icon of the window and of every dialog, even the start-up refusals
    qapp.setQuitOnLastWindowClosed(False)
    qsettings = QSettings()
    install_translator(qapp, chosen_language(qsettings, args.lang))
    overrides = {"DOCBATCH_DATA_DIR": args.data_dir} if args.data_dir else {}
    try:
        settings = check_settings(load_settings(**overrides), overrides)
    except ConfigError as exc:  # in the interface language, as the window would say it
        QMessageBox.critical(None, "DocBatch", exc.words(interface_language()))
        return 2
    problem = store_problem(settings)
    if problem is not None:  # damaged, empty, locked or full: one sentence, then exit
        QMessageBox.critical(None, "DocBatch", problem.words(interface_language()))
        return 1
    loop = make_loop(qapp)
    asyncio.set_event_loop(loop)
    # deferred: settings and stores (pydantic 0.13 s): main() first serves --child starts without
    #   them
    from docbatch_gui.app.log_file import log_to_file

    log_to_file(settings)  # the Log panel shows the session; the file keeps it
    window = build_window(settings, qsettings)
    if args.exit_after_show:
        return _exit_after_show(loop, window)
    collector = GuiThreadCollector(qapp)
    collector.start()
    stop_on_signals(window)
    window.show()
    with loop:
        loop.run_until_complete(run_window(window, [Path(f) for f in args.files]))
    collector.stop()
    return 0


def stop_on_signals(window: object) -> None:
    """Ctrl+C in the terminal, or SIGTERM from a session logout: shut down as the
    "leave for the next start" close does, instead of dying with a traceback.

    Python runs signal handlers only between bytecodes; a short idle timer gives it
    that chance while Qt's C++ loop waits.
    """
    # deferred: Qt and the window (PySide6 0.3 s, the window's modules 6 s): main() first serves
    #   --child starts without them
    from PySide6.QtCore import QTimer

    from docbatch_gui._qt.tasks import spawn
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)

    def stop(signum: int, _frame: object) -> None:
        log.info("signal %s: stopping; running steps resume on the next start", signum)
        if not window.shutting_down:
            spawn(window.shutdown())

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    ticker = QTimer(window)
    ticker.timeout.connect(lambda: None)
    ticker.start(300)


def _exit_after_show(loop: GuiLoop, window: object) -> int:
    """Show the window, wait for its first paint, print the timing and leave.

    Nothing is started (no queue load, no engine), so nothing needs stopping.
    """
    # deferred: Qt (PySide6 0.3 s): main() first serves --child starts without it
    from PySide6.QtWidgets import QWidget

    from docbatch_gui._qt.first_paint import on_first_paint
    from docbatch_gui._qt.loop import resolve

    assert isinstance(window, QWidget)
    shown: asyncio.Future[tuple[float, float]] = loop.create_future()
    on_first_paint(window, lambda: resolve(shown, (time.time(), time.process_time())))
    window.show()
    with loop:
        painted_at, cpu = loop.run_until_complete(asyncio.wait_for(shown, 30))
    elapsed = time.monotonic() - STARTED
    # cpu_s: the process's CPU time up to the paint, which a loaded machine inflates
    #   far less than the wall clock
    print(
        json.dumps({"shown_at": painted_at, "since_main_import_s": round(elapsed, 3), "cpu_s": cpu})
    )
    sys.stdout.flush()
    window.ctx.host.close()  # type: ignore[attr-defined]
    return 0


def store_problem(settings: object) -> Message | None:
    """Why the store cannot be opened, in one sentence; None when it opens (or is
    still to be created: the window creates it)."""
    # deferred: settings and stores (pydantic 0.13 s): main() first serves --child starts without
    #   them
    from docbatch_gui.settings.model import Settings
    from docbatch_gui.storage.backends import open_store

    assert isinstance(settings, Settings)
    if not settings.mongodb_uri and not settings.db_path.exists():
        return None
    try:
        open_store(settings).close()
    except DocBatchError as exc:
        return exc.message
    except (sqlite3.Error, OSError) as exc:
        return storage_error(exc, settings.db_path).message
    return None


def freeze_startup_heap() -> None:
    """Move everything alive after start-up (modules, classes, the widgets, the queue
    as loaded) out of the garbage collector's reach.

    A full collection walks every tracked object: about 50,000 after start-up, 30 ms
    or more on a busy machine, on the GUI thread, at a moment nobody chooses; a queue
    of 100,000 jobs adds 80 ms to each (GuiThreadCollector makes one every 30 s).
    Frozen, they are never walked again. A job replaced later is still freed: jobs
    hold no cycles, so their reference counts free them.
    """
    gc.collect()
    gc.freeze()


async def run_window(window: object, files: Sequence[Path] = ()) -> None:
    """Start the window's slow work, add the ``files`` it was opened with (the
    desktop entry's ``%F``), then wait until it closed."""
    # deferred: Qt and the window (PySide6 0.3 s, the window's modules 6 s): main() first serves
    #   --child starts without them
    from docbatch_gui._qt.loop import resolve
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    window.closed.connect(lambda: resolve(closed, None))
    await window.start()  # the window was painted while the queue was read
    freeze_startup_heap()
    if files:
        await window.queue_tab.add_paths(list(files))
    await closed
    window.ctx.host.close()
