"""Lines of a long table: how many rows are read, how many wholly right, at what cost
in time beside the file's own rendering.

The file is a 300-row ТОРГ-12 over 10 born-digital pages (``tests/lines_builders``:
header repeated per page, sums wrapped over two lines, a row cut by a page break,
"итого по листу" / "перенос" lines), and the same file as scans (pictures only).

- **prepare**: the file through the real prepare step (``run_prepare``: render
  child, JPEG, thumbnails, text layer and words), wall-clock;
- **lines**: DocBatch's own time for the lines in the same run, in-process on the
  words the prepare step gave: the table reader (``tables.read_table``, what the
  offline extractor adds) and the laid-out text a table page is sent to Claude
  with (``tables.layout_text``), each the best of five;
- **offline**: the whole offline run (``DocBatchApp``): row recall (rows read whose
  number is a printed row, over the printed rows) and rows with every value right
  (number, name, code, unit, quantity, price, net, rate, VAT, gross).

Scans have no text layer: the offline reader reads no lines from them and says so
(``lines_not_read_offline`` when OCR shows a table of goods); their rows are
Claude's to read from the images, which this benchmark does not measure.

Run: ``.venv/bin/python bench/lines.py [--rows 300] [--pages 10]``. The last line
is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.config.profile import load_profile  # noqa: E402
from docbatch_gui.pipeline.prepare import prepare_pool, run_prepare  # noqa: E402
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage  # noqa: E402
from docbatch_gui.pipeline.tables import layout_text, read_table  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402
from tests.builders import scanned_pdf  # noqa: E402
from tests.lines_builders import Row, goods, table_pdf  # noqa: E402

COLUMNS = ("no", "name", "code", "unit", "qty", "price", "net", "vat_rate", "vat", "gross")


async def _prepare(path: Path) -> tuple[float, list[RenderedPage]]:
    pool = prepare_pool(1)
    pages: list[RenderedPage] = []

    async def on_count(_count: int) -> None:
        return None

    async def on_page(page: RenderedPage) -> None:
        pages.append(page)

    try:
        warm = PrepareTask(str(path), path.name, "pdf", last_page=1)
        await run_prepare(warm, time.monotonic() + 600, pool, on_count=on_count, on_page=on_page)
        pages.clear()
        task = PrepareTask(str(path), path.name, "pdf")
        started = time.perf_counter()
        await run_prepare(task, time.monotonic() + 600, pool, on_count=on_count, on_page=on_page)
        return time.perf_counter() - started, pages
    finally:
        await pool.close()


def _best(call: Any, times: int = 5) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best


def _score(lines: list[Any], rows: list[Row]) -> dict[str, Any]:
    truth = {row.no: row for row in rows}
    found = [line for line in lines if line.no in truth]
    right = 0
    for line in found:
        row = truth[line.no]
        if all((line.value(c) or "") == getattr(row, c) for c in COLUMNS if c != "name") and (
            (line.name or "").startswith(row.name)  # a cut row's name goes on after it
        ):
            right += 1
    return {
        "rows_printed": len(rows),
        "rows_read": len(lines),
        "row_recall": round(len({line.no for line in found}) / len(rows), 4),
        "rows_all_right": right,
        "rows_all_right_share": round(right / len(rows), 4),
    }


def _offline(path: Path, data: Path) -> tuple[list[Any], list[str]]:
    settings = load_settings(data_dir=data, JOB_TIMEOUT=600, RENDER_WORKERS=1)
    app = DocBatchApp(settings)
    try:
        (job,) = app.add([path]).jobs
        asyncio.run(app.run([job.id]))
        documents = app.store.list_documents(job.id)
        lines = [line for d in documents for line in d.lines]
        codes = sorted({c.code for d in documents for c in d.review_codes})
        return lines, codes
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--pages", type=int, default=10)
    args = parser.parse_args()
    profile = load_profile()
    work = Path(tempfile.mkdtemp(prefix="docbatch-lines-"))
    try:
        rows = goods(args.rows)
        per_page = -(-args.rows // args.pages) + 1  # room for the row the page break cuts
        printed = table_pdf(
            work / "torg12.pdf",
            "torg12",
            rows,
            rows_per_page=per_page,
            cut_row=per_page,
            carried_forward=True,
        )
        scan = scanned_pdf(work / "torg12_scan.pdf", printed.path, dpi=150)

        prepare_s, pages = asyncio.run(_prepare(printed.path))
        words = [(page.page_no, page.words) for page in pages]
        read_s = _best(lambda: read_table(words, profile))
        layout_s = _best(lambda: [layout_text(w) for _n, w in words])
        scan_prepare_s, _scan_pages = asyncio.run(_prepare(scan))

        lines, codes = _offline(printed.path, work / "data")
        scan_lines, scan_codes = _offline(scan, work / "data_scan")
        born = _score(lines, rows)
        result = {
            "rows": args.rows,
            "pages": printed.pages,
            "prepare_s": round(prepare_s, 3),
            "lines_read_s": round(read_s, 4),
            "lines_layout_s": round(layout_s, 4),
            "lines_over_prepare": round((read_s + layout_s) / prepare_s, 4),
            **born,
            "line_review_codes": [c for c in codes if c.startswith("line")],
            "scan_prepare_s": round(scan_prepare_s, 3),
            "scan_rows_read_offline": len(scan_lines),
            "scan_says_so": "lines_not_read_offline" in scan_codes,
        }
        print(
            f"{args.rows} rows over {printed.pages} born-digital pages: prepare "
            f"{prepare_s:.2f} s, lines {read_s * 1000:.0f} ms read + {layout_s * 1000:.0f} ms "
            f"laid out ({result['lines_over_prepare']:.1%} of prepare); recall "
            f"{born['row_recall']:.2%}, {born['rows_all_right']} rows wholly right; scans: "
            f"{len(scan_lines)} rows offline, said so: {result['scan_says_so']}"
        )
        print(json.dumps(result, ensure_ascii=False))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
