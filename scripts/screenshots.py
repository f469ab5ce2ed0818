"""Screenshots of every tab with real data, for the README (docs/screenshots/).

Run under a real X server to get the platform's look:
``xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python scripts/screenshots.py [en|ru]``
(``--out DIR`` writes elsewhere than docs/screenshots/; ``--size 1024x640`` checks a
small screen).
It opens the window on a throw-away data directory and drops the bundled samples on
it. They are processed in batch mode against the test suite's wire-level fake of the
Anthropic API (no key, no cost), so the queue shows costs and the Batches tab a real
batch; then it grabs each tab.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


async def scenario(window: object, out: Path, lang: str) -> None:
    from docbatch_gui._qt.window import MainWindow
    from docbatch_gui.domain.states import FINAL_STATES
    from docbatch_gui.resources import resources_dir

    assert isinstance(window, MainWindow)
    await window.start()
    # a damaged scan too, so the queue shows how a failed file and its reason look
    damaged = Path(tempfile.mkdtemp(prefix="docbatch-shots-in-")) / "damaged_scan.pdf"
    damaged.write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog" + b"\x00\xff" * 200)
    await window.queue_tab.add_paths([*sorted((resources_dir() / "samples").iterdir()), damaged])
    for _ in range(3000):
        jobs = window.queue_tab.model.jobs()
        if jobs and all(j.state in FINAL_STATES for j in jobs):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)  # thumbnails
    table = window.queue_tab.table
    failed = [j for j in window.queue_tab.model.jobs() if j.file_name == damaged.name]
    if failed:  # its error in words in the detail pane, and wrapped under its row
        queue = window.queue_tab
        row = queue.proxy.mapFromSource(queue.model.index(queue.model.row_of(failed[0].id), 0))
        table.selectRow(row.row())
    else:
        table.selectRow(1)
    await asyncio.sleep(1.5)
    suffix = "" if lang == "en" else f"_{lang}"
    quiet(window)
    window.grab().save(str(out / f"queue{suffix}.png"))
    # the bundled registry sample, imported and searched as the wizard would
    sample = ROOT / "docbatch_gui" / "resources" / "registry_sample"
    loop = asyncio.get_running_loop()
    app = window.ctx.app
    summary = await loop.run_in_executor(
        None, lambda: app.registry.import_registry(sample / "registry.xlsx", sample / "config.json")
    )
    await loop.run_in_executor(None, lambda: app.registry.search(summary.registry_id))
    await window.registry_tab.refresh()
    window.registry_tab.select(summary.registry_id)
    await window.registry_tab.open_results(summary.registry_id)
    window.registry_tab.results.select_row(6)  # the act whose amount disagrees
    await window.webhooks_tab.refresh()
    for name, tab in (
        ("review", window.review_tab),
        ("batches", window.batches_tab),
        ("registry", window.registry_tab),
        ("webhooks", window.webhooks_tab),
        ("settings", window.settings_tab),
    ):
        window.tabs.setCurrentWidget(tab)
        if tab is window.review_tab:
            several = max(window.queue_tab.model.jobs(), key=lambda j: j.documents)
            # the seller's other two documents confirmed: the Known counterparty panel
            # beside the act shows what they taught
            for index in (0, 2):
                await loop.run_in_executor(
                    None,
                    lambda job=several.id, i=index: app.review.confirm(job, i, who="operator"),
                )
            await window.review_tab.open_job(several.id, 1)
        await asyncio.sleep(1.5)
        quiet(window)
        window.grab().save(str(out / f"{name}{suffix}.png"))
    await review_box(window, out / f"review_box{suffix}.png")
    await wizard_pages(window, out, suffix)
    window.tabs.setCurrentWidget(window.queue_tab)
    window.log_dock.show()
    await asyncio.sleep(0.5)
    quiet(window)
    window.grab().save(str(out / f"log{suffix}.png"))
    await window.shutdown()


async def wizard_pages(window: object, out: Path, suffix: str) -> None:
    """Every page of the registry wizard on an accountant's sheet (a merged title, a
    two-row header, a totals row, a signature line), as the wizard proposes it."""
    from docbatch_gui._qt.registry.wizard import RegistryWizard
    from docbatch_gui._qt.window import MainWindow
    from tests.accountant_sheet import accountant_xlsx

    assert isinstance(window, MainWindow)
    sheet = accountant_xlsx(Path(tempfile.mkdtemp(prefix="docbatch-shots-reg-")) / "март.xlsx")
    wizard = RegistryWizard(window.ctx, window)
    wizard.show()
    wizard.file_page.set_file(sheet)
    await asyncio.sleep(1.5)
    try:
        for number, _page in enumerate(wizard.pageIds(), start=1):
            if number > 1:
                wizard.next()
            await asyncio.sleep(1.5)
            wizard.grab().save(str(out / f"wizard_{number}{suffix}.png"))
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.hide()
        wizard.deleteLater()


def quiet(window: object) -> None:
    """No passing notice ("Processing finished …") over the tab being shot: the status
    bar keeps its line, the toast in the corner goes."""
    from PySide6.QtWidgets import QApplication

    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    notifier = window.ctx.notifier
    for toast in list(notifier._toasts):
        toast.hide()
        notifier._drop(toast)
    QApplication.processEvents()  # the dropped toasts are deleted before the grab


async def review_box(window: object, path: Path) -> None:
    """Review with the English invoice's number selected: its box drawn on the page.

    Where the engine gave the number no location, it is found on the page's text layer
    here, so the shot shows the box on the value all the same."""
    from dataclasses import replace

    import pymupdf

    from docbatch_gui._qt.window import MainWindow

    assert isinstance(window, MainWindow)
    app = window.ctx.app
    job = next(j for j in window.queue_tab.model.jobs() if j.file_name.startswith("en_invoice"))
    doc = app.review.document(job.id, 0)
    if "number" not in doc.locations and doc.fields.get("number"):
        with pymupdf.open(job.source_path) as pdf:
            page = pdf[doc.page_from - 1]
            found = page.search_for(str(doc.fields["number"]))
            if found:
                x0, y0, x1, y1 = found[0]
                width, height = page.rect.width, page.rect.height
                box = [x0 / width, y0 / height, x1 / width, y1 / height]
                where = {"number": {"page": doc.page_from, "box": box}}
                app.store.update_document(replace(doc, locations={**doc.locations, **where}))
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    await tab.open_job(job.id, 0)
    await asyncio.sleep(1.0)
    window.activateWindow()
    tab.editors["number"].setFocus()
    await asyncio.sleep(1.0)
    quiet(window)
    window.grab().save(str(path))


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
    lang, out = args.lang, args.out
    width, height = (int(v) for v in args.size.split("x"))
    out.mkdir(parents=True, exist_ok=True)
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    from PySide6.QtCore import QSize

    from docbatch_gui._qt.widgets import fit

    # dialogs (the registry wizard) fit the screen the shots stand for, not the
    # offscreen platform's 800×800
    fit.available_size = lambda _widget=None: QSize(width, height)
    install_translator(qapp, lang)  # type: ignore[arg-type]
    data = Path(tempfile.mkdtemp(prefix="docbatch-shots-"))
    sys.path.insert(0, str(ROOT))
    from tests.fakes.anthropic_server import FakeAnthropic

    os.environ["DOCBATCH_SETTINGS_FILE"] = str(data / "settings.json")  # not the user's
    fake = FakeAnthropic()
    fake.start()
    fake.batch_polls_needed = 3
    settings = load_settings(
        DOCBATCH_DATA_DIR=str(data),
        PROCESSING_MODE="batch",
        ANTHROPIC_API_KEY="screenshot-key",
        ANTHROPIC_BASE_URL=fake.url,
        POLL_INTERVAL=1,
        # a receiver nobody listens on: the Webhooks tab shows failed deliveries
        WEBHOOK_URL="http://127.0.0.1:9/hook",
        WEBHOOK_ATTEMPTS=1,
    )
    qsettings = QSettings(str(data / "gui.ini"), QSettings.Format.IniFormat)
    loop = make_loop(qapp)
    asyncio.set_event_loop(loop)
    window = build_window(settings, qsettings)
    window.resize(width, height)  # type: ignore[attr-defined]
    window.show()  # type: ignore[attr-defined]
    with loop:
        loop.run_until_complete(scenario(window, out, lang))
    fake.stop()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
