"""docbatch-gui on a machine without Qt's system libraries: a sentence naming the
packages, before QApplication would abort."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from docbatch_gui._qt import main as gui_main
from docbatch_gui._qt import qt_libraries
from docbatch_gui._qt.qt_libraries import RUNTIME, X11, missing_packages, platform_of


def test_the_platform_is_read_from_the_environment() -> None:
    assert platform_of({"QT_QPA_PLATFORM": "offscreen"}) == "offscreen"
    assert platform_of({"QT_QPA_PLATFORM": "wayland;xcb"}) == "wayland"
    assert platform_of({"DISPLAY": ":0"}) == "xcb"
    assert platform_of({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}) is None
    assert platform_of({}) is None


def test_a_missing_library_names_its_package() -> None:
    everything = set(RUNTIME) | set(X11)
    nothing_found = lambda _name: None  # noqa: E731
    assert missing_packages("xcb", everything, nothing_found) == []
    assert missing_packages("xcb", everything - {"xcb-cursor"}, nothing_found) == ["libxcb-cursor0"]
    # offscreen needs no X11 library
    assert missing_packages("offscreen", set(RUNTIME), nothing_found) == []
    # found by ctypes (LD_LIBRARY_PATH) though the linker's cache lacks it: present
    assert missing_packages("xcb", set(RUNTIME), lambda name: f"lib{name}.so") == []
    assert missing_packages("wayland", set(), nothing_found) == []


def test_docbatch_gui_says_what_to_install_instead_of_aborting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The X11 libraries "missing" (simulated: neither lookup finds xcb-cursor): main
    returns before any Qt widget module is imported."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv(qt_libraries.SKIP_VARIABLE, raising=False)
    known = set(RUNTIME) | set(X11) - {"xcb-cursor"}
    monkeypatch.setattr(qt_libraries, "known_libraries", lambda: known)
    monkeypatch.setattr(qt_libraries.ctypes.util, "find_library", lambda _name: None)

    def no_window(_args: object) -> int:
        raise AssertionError("Qt must not be started")

    monkeypatch.setattr(gui_main, "run_gui", no_window)
    assert gui_main.main(["--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "sudo apt-get install libxcb-cursor0" in err
    assert "scripts/run.sh" in err
    # the way out when the check is wrong
    monkeypatch.setenv(qt_libraries.SKIP_VARIABLE, "1")
    with pytest.raises(AssertionError, match="Qt must not be started"):
        gui_main.main(["--data-dir", str(tmp_path)])
