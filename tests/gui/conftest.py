"""GUI tests: offscreen Qt, the qasync loop installed through pytest-asyncio's hook.

``qtbot.waitSignal`` must not be used inside async tests (it spins a nested loop
and hangs); :func:`signal_future` and :func:`until` await instead.
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import pytest_asyncio
from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QSettings, SignalInstance
from PySide6.QtWidgets import QApplication

import docbatch_gui._qt.build as _build
from docbatch_gui._qt.i18n import install_translator
from docbatch_gui._qt.loop import make_loop
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.conftest import note_slow_work
from tests.helpers import LEAST_WAIT_S


def _noted_build_window(*args: Any, **kwargs: Any) -> Any:
    """``build_window``, noted: a test that builds the main window is slow
    (tests/conftest.py), whether through the ``window`` fixture or by itself."""
    note_slow_work("built the main window")
    return _build_window(*args, **kwargs)


_build_window, _build.build_window = _build.build_window, _noted_build_window

#: One QApplication for the whole session, referenced here so that it is never
#: collected between tests (a second QApplication after the first one was destroyed
#: crashes Qt at exit).
QAPP = QApplication.instance() or QApplication([])


def pytest_asyncio_loop_factories(config: Any, item: Any) -> dict[str, Callable[[], Any]]:
    return {"qasync": lambda: make_loop(QAPP)}


@contextmanager
def interface_in(language: str) -> Iterator[str]:
    """The translators of ``language`` while the test builds its window; English (and
    the locale of before) after."""
    previous = QLocale()
    assert install_translator(QAPP, language) == language
    try:
        yield language
    finally:
        install_translator(QAPP, "en")
        QLocale.setDefault(previous)


@pytest.fixture
def russian() -> Iterator[None]:
    with interface_in("ru"):
        yield


@pytest.fixture(autouse=True)
def collect_on_the_gui_thread() -> Iterator[None]:
    """As the application does (docbatch_gui._qt.gc_guard): no cyclic collection in
    the engine or executor threads while a GUI test runs, where PySide would delete
    widgets from the wrong thread; the test's garbage is collected here, after it. What
    survives (modules and caches the tests loaded since collection) is frozen as
    tests/conftest.py freezes the collected ones: the next collection walks only what
    the next tests make, not everything the earlier ones left alive."""
    gc.disable()
    try:
        yield
    finally:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
        gc.freeze()
        gc.enable()


@pytest.fixture(autouse=True)
def gui_isolation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the developer's own: settings file, data folder, QSettings."""
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(tmp_path / "config" / "settings.json"))
    monkeypatch.setenv("DOCBATCH_DATA_DIR", str(tmp_path / "data"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))


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


@asynccontextmanager
async def opened_window(settings: Settings, qsettings: QSettings) -> AsyncIterator[Any]:
    """The real main window on ``settings``, shown and started; shut down after, with
    every task it started drained first (one place for every window fixture)."""
    from docbatch_gui._qt.build import build_window
    from docbatch_gui._qt.tasks import drain

    win = build_window(settings, qsettings)
    win.show()
    await win.start()
    try:
        yield win
    finally:
        await drain()
        await win.shutdown()
        win.ctx.host.close()
        win.deleteLater()


@pytest_asyncio.fixture
async def window(gui_settings: Settings, qsettings: QSettings) -> AsyncIterator[Any]:
    """The real main window on a fresh data directory, started, shut down after."""
    async with opened_window(gui_settings, qsettings) as win:
        # The engine recovers interrupted jobs once, as it starts: a test that builds a
        # job by hand (claimed, mid-way) must not race it, or the job is "recovered"
        # under it.
        await until(lambda: win.ctx.host.app.recovered, what="the engine's startup recovery")
        yield win


def signal_future(signal: SignalInstance) -> asyncio.Future[tuple[Any, ...]]:
    """A future resolved by the next emission of ``signal``."""
    future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def fire(*args: Any) -> None:
        if not future.done():
            future.set_result(args)
        signal.disconnect(fire)

    signal.connect(fire)
    return future


def shown_box(parent: Any) -> Any:
    """The message box ``parent`` shows now, if any."""
    from PySide6.QtWidgets import QMessageBox

    return next((b for b in parent.findChildren(QMessageBox) if b.isVisible()), None)


async def until(
    predicate: Callable[[], bool], timeout: float = LEAST_WAIT_S, what: str = ""
) -> None:
    """Await a condition the GUI reaches by itself; fail with what was awaited, after
    ``timeout`` and never sooner than ``LEAST_WAIT_S`` (a hang guard, as ``wait_for``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(timeout, LEAST_WAIT_S)
    while not predicate():
        if loop.time() > deadline:
            pytest.fail(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.05)
