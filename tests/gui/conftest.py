"""GUI tests: offscreen Qt, the qasync loop installed through pytest-asyncio's hook.

``qtbot.waitSignal`` must not be used inside async tests (it spins a nested loop
and hangs); :func:`signal_future` and :func:`until` await instead.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import pytest_asyncio
import qasync
from PySide6.QtCore import QSettings, SignalInstance
from PySide6.QtWidgets import QApplication

from docbatch_gui.config import Settings, load_settings

#: One QApplication for the whole session, referenced here so that it is never
#: collected between tests (a second QApplication after the first one was destroyed
#: crashes Qt at exit).
QAPP = QApplication.instance() or QApplication([])


def pytest_asyncio_loop_factories(config: Any, item: Any) -> dict[str, Callable[[], Any]]:
    return {"qasync": lambda: qasync.QEventLoop(QAPP)}


@pytest.fixture(autouse=True)
def gui_isolation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the developer's own: settings file, data folder, QSettings."""
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(tmp_path / "config" / "settings.json"))
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path / "data"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))


@pytest.fixture(autouse=True)
def collect_on_gui_thread() -> Iterator[None]:
    """Collect the previous test's garbage here, on the GUI thread.

    Each test's qasync loop owns parentless QObjects (its ``_SimpleTimer``) with live
    Qt timers. Left to the cyclic collector, they may be freed from whatever thread
    happens to trigger a collection (an executor or engine thread); Qt then cannot
    unregister their timers and a later timer event lands on freed memory: a
    segfault in ``QTimerInfoList::activateTimers``, at a test that depends on nothing
    but allocation timing (any new import moved it). Collecting at the edges of every
    test frees them on the thread that owns them.
    """
    gc.collect()
    yield
    gc.collect()


@pytest.fixture
def gui_settings(tmp_path: Path) -> Settings:
    return load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="offline",
        OCR_ENGINE="none",
        JOB_TIMEOUT=60,
        RENDER_WORKERS=2,
    )


@pytest.fixture
def qsettings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "gui.ini"), QSettings.Format.IniFormat)


@pytest_asyncio.fixture
async def window(gui_settings: Settings, qsettings: QSettings) -> AsyncIterator[Any]:
    """The real main window on a fresh data directory, started, shut down after."""
    from docbatch_gui._qt.main import build_window
    from docbatch_gui._qt.tasks import drain

    win = build_window(gui_settings, qsettings)
    win.show()
    await win.start()
    try:
        yield win
    finally:
        await drain()
        await win.shutdown()
        win.ctx.app.close()
        win.deleteLater()


def signal_future(signal: SignalInstance) -> asyncio.Future[tuple[Any, ...]]:
    """A future resolved by the next emission of ``signal``."""
    future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def fire(*args: Any) -> None:
        if not future.done():
            future.set_result(args)
        signal.disconnect(fire)

    signal.connect(fire)
    return future


async def until(predicate: Callable[[], bool], timeout: float = 60, what: str = "") -> None:
    """Await a condition the GUI reaches by itself; fail with what was awaited."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            pytest.fail(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.05)


_EXIT_STATUS: list[int] = []


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: Any) -> None:
    """Leave without the interpreter's final garbage collection.

    After several windows ran on the qasync loop, PySide6 6.12 aborts in that last
    collection ("bool_dealloc", a refcount error inside the binding) although every
    test passed; the real application exits through ``app.exec``'s normal path and is
    not affected (the self-test checks its exit code). Every other plugin has already
    finished here, so only the exit status is left to give.
    """
    if _EXIT_STATUS:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[-1])
