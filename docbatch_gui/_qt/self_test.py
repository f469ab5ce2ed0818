"""``DocBatch --self-test``: prove an installed bundle works, without a screen.

It starts the real window offscreen on a throw-away data directory, drops one
bundled sample, processes it offline and checks that documents came out. The exit
code says whether the bundle is whole (Qt plugins, MuPDF, the extractor, resources).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from docbatch_gui._qt.app_icon import dress
from docbatch_gui._qt.build import build_window
from docbatch_gui._qt.gc_guard import GuiThreadCollector
from docbatch_gui._qt.loop import make_loop
from docbatch_gui.extras import available
from docbatch_gui.frozen import is_frozen
from docbatch_gui.resources import resources_dir
from docbatch_gui.settings.loading import load_settings

SAMPLE = "en_invoice_INV-2024-0042.pdf"
LIMIT_S = 180
#: imported lazily by the app (only when a key or a backend is configured), so an
#: offline run never touches them; a bundle that lacks one would fail only later, at
#: a customer's. The self-test imports each to prove the bundle carries it.
LAZY_MODULES = (
    "docbatch_gui.llm.claude",
    "docbatch_gui.llm.batches",
    "docbatch_gui.pipeline.ocr_vision",
    "docbatch_gui.pipeline.ocr_tesseract",
    "anthropic",
    "google.cloud.vision",
    "google.oauth2.service_account",
    "keyring",
    "pytesseract",
    "openpyxl",
    "rapidfuzz",
)
#: from an optional extra: a pip install may leave it out (and then says so when the
#: feature is chosen); a bundle must carry it
EXTRA_MODULES = {"google.cloud.vision", "google.oauth2.service_account"}


def missing_modules() -> dict[str, str]:
    """The lazily imported modules that fail to import, with the reason."""
    missing = {}
    for name in LAZY_MODULES:
        if name in EXTRA_MODULES and not is_frozen() and not available(name):
            continue
        try:
            importlib.import_module(name)
        except Exception as exc:  # ImportError, or a broken package's own error
            missing[name] = f"{type(exc).__name__}: {exc}"
    return missing


def run_self_test() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # read by QApplication
    started = time.monotonic()
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qapp, QApplication)
    icon = dress(qapp)
    data_dir = Path(tempfile.mkdtemp(prefix="docbatch-selftest-"))
    settings = load_settings(
        DOCBATCH_DATA_DIR=str(data_dir), PROCESSING_MODE="offline", OCR_ENGINE="none"
    )
    qsettings = QSettings(str(data_dir / "gui.ini"), QSettings.Format.IniFormat)
    loop = make_loop(qapp)
    asyncio.set_event_loop(loop)
    window = build_window(settings, qsettings)
    collector = GuiThreadCollector(qapp)
    collector.start()
    window.show()
    report: dict[str, object] = {"ok": False}

    async def scenario() -> None:
        await window.start()
        # shown, queue loaded and engine running (not just the first paint)
        report["started_s"] = round(time.monotonic() - started, 3)
        sample = resources_dir() / "samples" / SAMPLE
        await window.queue_tab.add_paths([sample])
        deadline = time.monotonic() + LIMIT_S
        while time.monotonic() < deadline:
            jobs = window.queue_tab.model.jobs()
            if jobs and all(j.state.value in ("done", "needs_review", "failed") for j in jobs):
                break
            await asyncio.sleep(0.2)
        jobs = window.queue_tab.model.jobs()
        report.update(
            jobs=[
                {
                    "file": j.file_name,
                    "state": j.state.value,
                    "documents": j.documents,
                    "error": j.error,
                }
                for j in jobs
            ],
        )
        report["missing_modules"] = await asyncio.to_thread(missing_modules)
        # the icon's sizes, as the window has it: none means Qt's default icon
        report["icon_sizes"] = [s.width() for s in window.windowIcon().availableSizes()]
        report["ok"] = (
            bool(jobs)
            and all(j.state.value in ("done", "needs_review") and j.documents > 0 for j in jobs)
            and not report["missing_modules"]
            and not icon.isNull()
            and bool(report["icon_sizes"])
        )
        await window.shutdown()
        window.ctx.host.close()

    with loop:
        loop.run_until_complete(scenario())
    collector.stop()
    report["seconds"] = round(time.monotonic() - started, 2)
    print(json.dumps(report, ensure_ascii=False))
    return 0 if report["ok"] else 1
