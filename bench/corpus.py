"""DocBatch on the real-world corpus (``scripts/corpus.py``): what it gets right.

Every corpus file is processed offline (Tesseract OCR where a page has no text
layer) through the real ``DocBatchApp`` on a throw-away data directory, then held to
the manifest's expectations:

- ``opened_share``: of the files a careful reader opens (qpdf, MuPDF or Pillow), the
  share DocBatch processed instead of refusing;
- ``rotation_errors``: pages of known orientation that DocBatch left turned wrong
  (an upright page turned over counts, and so does a sideways page left sideways);
- ``text_lost_pages``: pages whose own text layer holds text and that DocBatch stored
  without any;
- ``pages_per_s``: pages rendered (and OCR'd where needed) per second of wall time;
- ``turned_unchecked_pages``: pages DocBatch turned whose orientation nobody checked
  (each is listed: a place to look, and a candidate for ``KNOWN_ROTATION``);
- ``uncertain_pages``: pages kept as scanned on weak evidence and marked "orientation
  uncertain" for review (each is listed with its evidence).

Run ``scripts/corpus.py`` first, then ``.venv/bin/python bench/corpus.py
[--corpus DIR] [--only SUBSTRING]``. The last line is one JSON object
``{"files", "pages", "opened_share", "rotation_errors", "wrong_unflagged",
"text_lost_pages", "pages_per_s", "turned_unchecked_pages", "uncertain_pages",
"by_corpus"}``; ``wrong_unflagged`` counts the pages facing the wrong way that were not
flagged *orientation uncertain*, and ``by_corpus`` gives the orientation figures of
each project's files.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.domain.states import JobState  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402

PROCESSED = (JobState.DONE, JobState.NEEDS_REVIEW)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / ".corpus")
    parser.add_argument("--only", default="", help="only files whose path contains this")
    parser.add_argument("--job-timeout", type=float, default=120)
    parser.add_argument(
        "--page-timeout",
        type=float,
        default=60,
        help="PAGE_TIMEOUT and OCR_TIMEOUT (s); raise it on a loaded machine, where a"
        " page that times out says nothing about its orientation",
    )
    args = parser.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text(encoding="utf-8"))
    entries = [e for e in manifest["files"] if args.only in f"{e['project']}/{e['file']}"]
    paths = {args.corpus / e["project"] / e["file"]: e for e in entries}
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            data_dir=Path(tmp) / "data",
            OCR_ENGINE="tesseract",
            PROCESSING_MODE="offline",
            JOB_TIMEOUT=args.job_timeout,
            PAGE_TIMEOUT=args.page_timeout,
            OCR_TIMEOUT=args.page_timeout,
        )
        app = DocBatchApp(settings)
        report = app.add(list(paths), mode="offline", force=True)
        started = time.monotonic()
        jobs = asyncio.run(app.run([j.id for j in report.jobs]))
        elapsed = time.monotonic() - started
        by_path = {Path(j.source_path): j for j in jobs}
        refused, rotation_errors, text_lost, pages = [], [], [], 0
        unchecked_turns: list[tuple[str, int, int, float]] = []
        #: per corpus (the project the files come from): the orientation figures
        by_corpus: dict[str, dict[str, int]] = {}
        wrong_unflagged: list[tuple[str, int, int, int]] = []
        uncertain: list[tuple[str, int, str]] = []
        for path, entry in paths.items():
            job = by_path.get(path.resolve())
            name = f"{entry['project']}/{entry['file']}"
            tally = by_corpus.setdefault(
                entry["project"],
                {
                    "files": 0,
                    "pages": 0,
                    "checked_pages": 0,
                    "rotation_errors": 0,
                    "wrong_unflagged": 0,
                    "uncertain_pages": 0,
                },
            )
            tally["files"] += 1
            if job is None:
                refused.append((name, "no job"))
                continue
            pages += job.pages or 0
            tally["pages"] += job.pages or 0
            if entry["opens"] and job.state not in PROCESSED:
                refused.append((name, f"{job.state.value}: {(job.error or '')[:90]}"))
            stored = {p.page_no: p for p in app.pages(job.id)} if job.state in PROCESSED else {}
            for number, expected in enumerate(entry["rotation"] or [], start=1):
                page = stored.get(number)
                tally["checked_pages"] += page is not None
                if page is not None and page.rotation % 360 != expected:
                    rotation_errors.append((name, number, expected, page.rotation))
                    tally["rotation_errors"] += 1
                    if not page.orientation_uncertain:
                        wrong_unflagged.append((name, number, expected, page.rotation))
                        tally["wrong_unflagged"] += 1
            known = entry["rotation"] or []
            for page in stored.values():
                if page.rotation % 360 and page.page_no > len(known):
                    unchecked_turns.append(
                        (name, page.page_no, page.rotation, page.rotation_confidence)
                    )
            flagged = [
                (name, p.page_no, p.orientation_note)
                for p in stored.values()
                if p.orientation_uncertain
            ]
            uncertain += flagged
            tally["uncertain_pages"] += len(flagged)
            for number in entry["text_pages"]:
                page = stored.get(number)
                if page is not None and not page.text.strip():
                    text_lost.append((name, number))
        app.close()
    opened = [e for e in entries if e["opens"]]
    for name, why in refused:
        print(f"refused   {name}: {why}")
    for name, number, expected, got in rotation_errors:
        print(f"rotation  {name} page {number}: expected {expected}, DocBatch {got}")
    for name, number in text_lost:
        print(f"text lost {name} page {number}")
    for name, number, rotation, confidence in unchecked_turns:
        print(
            f"turned    {name} page {number}: {rotation}° (confidence {confidence:.2f}), unchecked"
        )
    for name, number, note in uncertain:
        print(f"uncertain {name} page {number}: {note}")
    figures = {
        "files": len(entries),
        "pages": pages,
        "opened_share": round(1 - len(refused) / max(1, len(opened)), 3),
        "rotation_errors": len(rotation_errors),
        #: pages facing the wrong way and not flagged "orientation uncertain" (must be 0)
        "wrong_unflagged": len(wrong_unflagged),
        "text_lost_pages": len(text_lost),
        "pages_per_s": round(pages / elapsed, 2) if elapsed else None,
        "turned_unchecked_pages": len(unchecked_turns),
        "uncertain_pages": len(uncertain),
        "by_corpus": by_corpus,
    }
    for project, tally in sorted(by_corpus.items()):
        print(
            f"corpus    {project}: {tally['files']} files, {tally['pages']} pages, "
            f"{tally['checked_pages']} of known orientation, {tally['rotation_errors']} "
            f"facing wrong ({tally['wrong_unflagged']} without a flag), "
            f"{tally['uncertain_pages']} flagged uncertain"
        )
    print(
        f"{figures['files']} files, {pages} pages in {elapsed:.1f} s; opened "
        f"{figures['opened_share']:.1%} of those a reader opens; "
        f"{len(rotation_errors)} rotation errors; {len(text_lost)} pages lost their text"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
