"""A job held running for as long as a GUI test needs: its render child stalls on
the file's one page through the child's seam (``DOCBATCH_CHILD_STALL_PAGE``) until
the test releases it, instead of a file of hundreds of pages used as a timer that a
fast machine renders before the test acts and a loaded one past JOB_TIMEOUT."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.pipeline.child import (
    STALL_MARKER_VARIABLE,
    STALL_RELEASE_VARIABLE,
    STALL_VARIABLE,
)
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.builders import text_pdf


def held_settings(tmp_path: Path, workers: int = 2) -> Settings:
    """The GUI tests' settings, with limits far beyond any hold: only the test's
    release, a cancel or a stop ends the held page."""
    return load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="offline",
        OCR_ENGINE="none",
        JOB_TIMEOUT=3600,
        PAGE_TIMEOUT=3600,
        RENDER_WORKERS=workers,
    )


class HeldRender:
    """``file`` renders as far as its one page and waits there: ``stalled()`` once
    the child is there, ``release()`` lets the page render and the job finish."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.file = text_pdf(tmp_path / "held.pdf", text="Invoice No. 1\nTotal: 1.00 USD")
        self._marker = tmp_path / "held-stalled.txt"
        self._release = tmp_path / "held-released"
        monkeypatch.setenv(STALL_VARIABLE, f"{self.file.name}:1")
        monkeypatch.setenv(STALL_MARKER_VARIABLE, str(self._marker))
        monkeypatch.setenv(STALL_RELEASE_VARIABLE, str(self._release))

    def stalled(self) -> bool:
        return self._marker.exists()

    def release(self) -> None:
        self._release.touch()
