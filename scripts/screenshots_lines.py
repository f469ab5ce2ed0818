"""Screenshots of the Review tab's grid of lines, for the README (docs/screenshots/).

A born-digital УПД of 30 rows whose printed total is 1,000.00 above its rows
(``tests/lines_builders.py``) is read offline; Review opens it with a row chosen (its
box drawn on the page) and the totals bar saying the sums disagree.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshots_lines.py [en|ru]
[--size 1024x640] [--out DIR]`` (or under ``xvfb-run`` for the platform's look). It
writes ``review_lines[_ru].png``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


async def scenario(window: object, source: Path, path: Path) -> None:
    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    await window.start()
    app = window.ctx.app
    loop = asyncio.get_running_loop()
    added = await loop.run_in_executor(None, lambda: app.add([source]))
    (job,) = added.jobs
    await loop.run_in_executor(None, lambda: asyncio.run(app.run([job.id])))
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    await tab.open_job(job.id, 0)
    await asyncio.sleep(1.5)
    grid = tab.lines_grid
    grid.view.setFocus()
    grid.view.setCurrentIndex(grid.model.index(3, 1))
    await asyncio.sleep(1.5)
    from scripts.screenshots import quiet

    quiet(window)
    window.grab().save(str(path))
    await window.shutdown()


def main() -> int:
    import argparse

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from docbatch_gui._qt.build import build_window
    from docbatch_gui._qt.i18n import install_translator
    from docbatch_gui._qt.loop import make_loop
    from docbatch_gui.settings.loading import load_settings

    parser = argparse.ArgumentParser()
    parser.add_argument("lang", nargs="?", default="en", choices=["en", "ru"])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--size", default="1480x900", help="window size, WxH")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    from tests.lines_builders import goods, table_pdf

    data = Path(tempfile.mkdtemp(prefix="docbatch-shots-lines-"))
    printed = table_pdf(data / "УПД_15.pdf", "upd", goods(30), total_delta=Decimal("1000.00"))
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    install_translator(qapp, args.lang)
    os.environ["DOCBATCH_SETTINGS_FILE"] = str(data / "settings.json")  # not the user's
    settings = load_settings(DOCBATCH_DATA_DIR=str(data / "data"), PROCESSING_MODE="offline")
    qsettings = QSettings(str(data / "gui.ini"), QSettings.Format.IniFormat)
    loop = make_loop(qapp)
    asyncio.set_event_loop(loop)
    window = build_window(settings, qsettings)
    window.resize(width, height)  # type: ignore[attr-defined]
    window.show()  # type: ignore[attr-defined]
    suffix = "" if args.lang == "en" else f"_{args.lang}"
    target = args.out / f"review_lines{suffix}.png"
    with loop:
        loop.run_until_complete(scenario(window, printed.path, target))
    print(f"screenshot in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
