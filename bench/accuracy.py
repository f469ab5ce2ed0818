"""How often each reading path gets a field right, on documents DocBatch did not make.

The sets (``--sets``, default all that are present):

- ``invoice2data``: the sample invoices of invoice2data (MIT; English, German, French,
  Dutch and Indian-English born-digital PDFs, with the answers its authors checked),
  committed in ``bench/data/invoice2data`` with their origin and sha256;
- ``ru_scans``: Russian invoices built from known values and turned into noisy,
  skewed, stamped scans (``bench/ru_scans.py``; no public Russian set exists);
- ``sroie``: receipts of ICDAR-2019 SROIE (date and total), when
  ``--download-sroie N`` has put them in ``.corpus/accuracy/sroie`` (git-ignored;
  manifest with origin, sha256 and answers; research-use data, never committed);
- ``docile``: DocILE documents (invoices of many vendors and layouts, with annotated
  fields and line items), put in ``.corpus/accuracy/docile`` by ``--import-docile DIR``
  from a DocILE dataset folder (``annotations/``, ``pdfs/``: the public sample in
  rossumai/docile's ``tests/data/sample-dataset``, or the full set an operator
  downloaded under its licence) or by ``--docile-git CLONE`` from a clone of that
  repository at a pinned commit; manifest with origin, sha256 and answers, never
  committed. Besides number, date and total it scores the line items (``lines``: the
  count of rows read against the annotated rows).

Each file goes through the real ``DocBatchApp`` on a fresh data folder: ``offline``
(the offline reader, Tesseract OCR for scans: no key, no network) always, and with
``--live`` the Claude path in sync mode with the key from the keyring (the operator's
``ANTHROPIC_API_KEY`` setting), which costs money: its cost per page is printed.

Per path and field (number, date, amount, vat, currency, and the document type): right,
wrong, missing, and wrong with a confidence above the profile's review threshold (the
values an operator would not be asked to check). The last line is one JSON object.

Run: ``.venv/bin/python bench/accuracy.py [--sets a,b] [--limit N] [--live]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import ru_scans  # noqa: E402

from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.domain.normalize import normalize_amount  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402

DATA = ROOT / "bench" / "data"
DOWNLOADED = ROOT / ".corpus" / "accuracy"
FIELDS = ("number", "date", "amount", "vat", "currency", "lines")
#: the fields the acceptance figure counts (number, date and total of each invoice)
KEY_FIELDS = ("number", "date", "amount")
#: the bench's field names that the bundled profile calls otherwise
PROFILE_KEYS = {"vat": "vat_amount"}
#: invoice2data's answer keys → DocBatch's fields
INVOICE2DATA_KEYS = {
    "invoice_number": "number",
    "date": "date",
    "amount": "amount",
    "amount_tax": "vat",
    "currency": "currency",
}
#: the language of each invoice2data sample (what the acceptance figure is split by)
INVOICE2DATA_LANGUAGE = {
    "AmazonWebServices": "en",
    "AzureInterior": "en",
    "FlipkartInvoice": "en",
    "NetpresseInvoice": "fr",
    "QualityHosting": "de",
    "SammyMaystoneLinesTest": "en",
    "coolblue1": "nl",
    "coolblue2": "nl",
    "free_fiber": "fr",
    "oyo": "en",
    "saeco": "nl",
}


@dataclass
class Case:
    path: Path
    answers: dict[str, Any]
    set_name: str
    language: str


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    missing: int = 0
    wrong_high: int = 0
    high: int = 0  # values above the review threshold
    high_right: int = 0
    wrong_examples: list[str] = field(default_factory=list)

    def add(self, verdict: str, high: bool, example: str) -> None:
        if verdict == "right":
            self.right += 1
        elif verdict == "wrong":
            self.wrong += 1
            self.wrong_examples.append(example)
            self.wrong_high += high
        else:
            self.missing += 1
        if verdict != "missing" and high:
            self.high += 1
            self.high_right += verdict == "right"

    def as_dict(self) -> dict[str, Any]:
        found = self.right + self.wrong + self.missing
        return {
            "right": self.right,
            "wrong": self.wrong,
            "missing": self.missing,
            "wrong_high_confidence": self.wrong_high,
            "right_share": round(self.right / found, 3) if found else None,
            "high_confidence_right_share": round(self.high_right / self.high, 3)
            if self.high
            else None,
        }


# --------------------------------------------------------------------- the sets


def invoice2data_cases() -> list[Case]:
    folder = DATA / "invoice2data"
    cases = []
    for answer_file in sorted(folder.glob("*.json")):
        if answer_file.name == "manifest.json":
            continue
        raw = json.loads(answer_file.read_text(encoding="utf-8"))[0]
        answers = {ours: raw[theirs] for theirs, ours in INVOICE2DATA_KEYS.items() if theirs in raw}
        answers["doc_type"] = "invoice"
        language = INVOICE2DATA_LANGUAGE.get(answer_file.stem, "en")
        cases.append(Case(answer_file.with_suffix(".pdf"), answers, "invoice2data", language))
    return cases


def ru_scan_cases(folder: Path, count: int) -> list[Case]:
    answers = ru_scans.build(folder, count)
    return [Case(folder / name, a, "ru_scans", "ru") for name, a in answers.items()]


def downloaded_cases(name: str) -> list[Case]:
    """SROIE/DocILE files fetched earlier: ``DOWNLOADED/name/manifest.json`` lists each
    file with its answers (``answers``), origin and sha256."""
    manifest = DOWNLOADED / name / "manifest.json"
    if not manifest.is_file():
        return []
    entries = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    return [
        Case(DOWNLOADED / name / file, entry["answers"], name, entry.get("language", "en"))
        for file, entry in entries.items()
    ]


SROIE_REPO = "zzzDavid/ICDAR-2019-SROIE"
SROIE_COMMIT = "27be4271b251c256f695acbade9a801bffe85994"


def download_sroie(count: int, git_dir: Path | None = None) -> Path:
    """The first ``count`` SROIE receipts (image and answers) into ``DOWNLOADED/sroie``
    with a manifest (origin, sha256, answers), from GitHub at a pinned commit, or from
    a local clone (``git_dir``). The set's licence allows research use only: it is
    downloaded, never committed."""
    import hashlib
    import subprocess

    import httpx

    from docbatch_gui.domain.normalize import normalize_date

    def read(path: str) -> bytes:
        if git_dir is not None:
            return subprocess.run(
                ["git", "-C", str(git_dir), "show", f"{SROIE_COMMIT}:{path}"],
                capture_output=True,
                check=True,
            ).stdout
        url = f"https://raw.githubusercontent.com/{SROIE_REPO}/{SROIE_COMMIT}/{path}"
        return httpx.get(url, timeout=60, follow_redirects=True).raise_for_status().content

    folder = DOWNLOADED / "sroie"
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, Any] = {}
    for n in range(count):
        key = json.loads(read(f"data/key/{n:03d}.json"))
        image = read(f"data/img/{n:03d}.jpg")
        name = f"sroie_{n:03d}.jpg"
        (folder / name).write_bytes(image)
        files[name] = {
            "origin": f"github:{SROIE_REPO}@{SROIE_COMMIT}:data/img/{n:03d}.jpg",
            "sha256": hashlib.sha256(image).hexdigest(),
            "answers": {"date": normalize_date(key.get("date")), "amount": key.get("total")},
            "language": "en",
        }
    (folder / "manifest.json").write_text(json.dumps({"files": files}, indent=1) + "\n")
    return folder


DOCILE_REPO = "rossumai/docile"
DOCILE_COMMIT = "12f9502d1ee80143c24eb98d89abc324db8003b6"
DOCILE_SAMPLE = "tests/data/sample-dataset"
#: DocILE's document types → the bundled profile's
DOCILE_TYPES = {"tax_invoice": "invoice", "invoice": "invoice", "proforma": "invoice"}


def docile_answers(annotation: Mapping[str, Any]) -> dict[str, Any]:
    """Number, date, total, type and line count of one DocILE annotation."""
    from docbatch_gui.domain.normalize import normalize_date

    fields: dict[str, str] = {}
    for item in annotation.get("field_extractions", []):
        fields.setdefault(item["fieldtype"], item.get("text") or "")
    total = fields.get("amount_total_gross") or fields.get("amount_due")
    rows = {item.get("line_item_id") for item in annotation.get("line_item_extractions", [])}
    kind = DOCILE_TYPES.get(annotation.get("metadata", {}).get("document_type", ""))
    answers: dict[str, Any] = {
        "number": fields.get("document_id") or None,
        "date": normalize_date(fields["date_issue"]) if fields.get("date_issue") else None,
        "amount": normalize_amount(total) if total else None,
        "lines": len(rows - {None}) or None,
    }
    if kind:
        answers["doc_type"] = kind
    return answers


def import_docile(folder: Path | None = None, git_dir: Path | None = None) -> Path:
    """DocILE documents (``pdfs/<id>.pdf`` with ``annotations/<id>.json``) from a dataset
    ``folder`` or from the sample in a clone (``git_dir``) at :data:`DOCILE_COMMIT`, into
    ``DOWNLOADED/docile`` with a manifest (origin, sha256, answers)."""
    import hashlib
    import subprocess

    def listing() -> list[str]:
        if git_dir is None:
            assert folder is not None
            return sorted(p.stem for p in (folder / "annotations").glob("*.json"))
        names = subprocess.run(
            [
                "git",
                "-C",
                str(git_dir),
                "ls-tree",
                "--name-only",
                DOCILE_COMMIT,
                f"{DOCILE_SAMPLE}/annotations/",
            ],
            capture_output=True,
            check=True,
            text=True,
        ).stdout.split()
        return sorted(Path(n).stem for n in names)

    def read(relative: str) -> tuple[bytes, str]:
        if git_dir is None:
            assert folder is not None
            return (folder / relative).read_bytes(), str((folder / relative).resolve())
        path = f"{DOCILE_SAMPLE}/{relative}"
        body = subprocess.run(
            ["git", "-C", str(git_dir), "show", f"{DOCILE_COMMIT}:{path}"],
            capture_output=True,
            check=True,
        ).stdout
        return body, f"github:{DOCILE_REPO}@{DOCILE_COMMIT}:{path}"

    target = DOWNLOADED / "docile"
    target.mkdir(parents=True, exist_ok=True)
    files: dict[str, Any] = {}
    for doc_id in listing():
        annotation, _ = read(f"annotations/{doc_id}.json")
        pdf, origin = read(f"pdfs/{doc_id}.pdf")
        name = f"docile_{doc_id}.pdf"
        (target / name).write_bytes(pdf)
        meta = json.loads(annotation).get("metadata", {})
        files[name] = {
            "origin": origin,
            "sha256": hashlib.sha256(pdf).hexdigest(),
            "answers": docile_answers(json.loads(annotation)),
            "language": {"eng": "en"}.get(meta.get("language", ""), meta.get("language", "en")),
        }
    (target / "manifest.json").write_text(json.dumps({"files": files}, indent=1) + "\n")
    return target


# --------------------------------------------------------------------- judging


def _number_key(value: Any) -> str:
    return re.sub(r"[^0-9a-z]", "", str(value).lower().lstrip("#"))


def verdict(field_name: str, expected: Any, found: Any) -> str:
    """right / wrong / missing for one field."""
    if found in (None, ""):
        return "missing"
    if field_name == "number":
        return "right" if _number_key(expected) == _number_key(found) else "wrong"
    if field_name in ("amount", "vat"):
        value = normalize_amount(found) if isinstance(found, str) else found
        try:
            return "right" if abs(float(value) - float(expected)) < 0.005 else "wrong"
        except (TypeError, ValueError):
            return "wrong"
    if field_name == "lines":
        return "right" if int(found) == int(expected) else "wrong"
    if field_name == "currency":
        return "right" if str(expected).upper() == str(found).upper() else "wrong"
    return "right" if str(expected) == str(found) else "wrong"


def read_all(cases: list[Case], mode: str, data_dir: Path, **settings: Any) -> dict[str, Any]:
    """Each case's document fields, confidences and type as the app reads them."""
    app = DocBatchApp(load_settings(data_dir=data_dir, JOB_TIMEOUT=300, **settings))
    try:
        report = app.add([c.path for c in cases], mode=mode, force=True)
        jobs = asyncio.run(app.run([j.id for j in report.jobs]))
        found: dict[str, Any] = {}
        for job in jobs:
            documents = app.documents(job.id)
            cost = sum(r.cost_usd or 0.0 for r in app.store.list_requests(job.id))
            first = documents[0] if documents else None
            found[job.file_name] = {
                "fields": {
                    **(dict(first.fields) if first else {}),
                    "lines": len(first.lines) if first and first.lines else None,
                },
                "confidence": dict(first.confidence) if first else {},
                "doc_type": first.doc_type if first else None,
                "state": job.state.value,
                "pages": job.pages or 0,
                "cost_usd": cost,
            }
        return found
    finally:
        app.close()


def score(
    cases: list[Case], found: Mapping[str, Any], threshold: float
) -> tuple[dict[str, Tally], dict[str, Tally]]:
    """Tallies per field, and per language for the key fields."""
    per_field = {name: Tally() for name in (*FIELDS, "doc_type")}
    per_language: dict[str, Tally] = {}
    for case in cases:
        got = found.get(case.path.name, {"fields": {}, "confidence": {}, "doc_type": None})
        for name in FIELDS:
            if name not in case.answers or case.answers[name] in (None, ""):
                continue
            key = PROFILE_KEYS.get(name, name)
            value = got["fields"].get(key)
            confidence = float(got["confidence"].get(key) or 0.0)
            result = verdict(name, case.answers[name], value)
            example = f"{case.path.name}: {name} {value!r} (answer {case.answers[name]!r}, "
            example += f"confidence {confidence:g})"
            per_field[name].add(result, confidence >= threshold, example)
            if name in KEY_FIELDS:
                per_language.setdefault(case.language, Tally()).add(result, False, example)
        if "doc_type" not in case.answers:  # receipts: the profile has no such type
            continue
        kind = got["doc_type"]
        result = (
            "missing"
            if kind in (None, "unknown")
            else ("right" if kind == case.answers.get("doc_type") else "wrong")
        )
        per_field["doc_type"].add(result, False, f"{case.path.name}: type {kind!r}")
    return per_field, per_language


def summary(per_field: Mapping[str, Tally]) -> dict[str, Any]:
    """The acceptance figures of some tallies: number/date/total right, and how often
    a value above the threshold is right."""
    key = [per_field[n] for n in KEY_FIELDS]
    asked = sum(t.right + t.wrong + t.missing for t in key)
    high = sum(t.high for t in per_field.values())
    high_right = sum(t.high_right for t in per_field.values())
    return {
        "key_fields_right_share": round(sum(t.right for t in key) / asked, 3) if asked else None,
        "wrong_high_confidence": sum(t.wrong_high for t in per_field.values()),
        "high_confidence_right_share": round(high_right / high, 3) if high else None,
    }


def by_set(cases: list[Case], found: Mapping[str, Any], threshold: float) -> dict[str, Any]:
    """Per set: its fields' tallies and its acceptance figures (``summary``)."""
    out: dict[str, Any] = {}
    for name in sorted({c.set_name for c in cases}):
        per_field, _languages = score([c for c in cases if c.set_name == name], found, threshold)
        out[name] = {
            "files": sum(c.set_name == name for c in cases),
            **summary(per_field),
            "fields": {n: t.as_dict() for n, t in per_field.items()},
        }
    return out


def table(path: str, per_field: Mapping[str, Tally]) -> None:
    print(f"\n{path}: field      right wrong missing wrong>threshold")
    for name, tally in per_field.items():
        print(
            f"{path}: {name:<10} {tally.right:>5} {tally.wrong:>5} {tally.missing:>7} "
            f"{tally.wrong_high:>15}"
        )
        for example in tally.wrong_examples:
            print(f"{path}:   wrong: {example}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="invoice2data,ru_scans,sroie,docile")
    parser.add_argument("--limit", type=int, default=0, help="at most N files per set (0: all)")
    parser.add_argument("--ru-scans", type=int, default=8, help="how many Russian scans to build")
    parser.add_argument(
        "--live", action="store_true", help="also the Claude path (sync; key from the keyring)"
    )
    parser.add_argument(
        "--download-sroie",
        type=int,
        default=0,
        metavar="N",
        help="first fetch N SROIE receipts into .corpus/accuracy/sroie (network)",
    )
    parser.add_argument("--sroie-git", type=Path, help="read SROIE from this local clone instead")
    parser.add_argument(
        "--import-docile",
        type=Path,
        metavar="DIR",
        help="first copy a DocILE dataset folder (annotations/, pdfs/) into .corpus/accuracy",
    )
    parser.add_argument(
        "--docile-git",
        type=Path,
        metavar="CLONE",
        help="first copy DocILE's public sample from this clone of rossumai/docile",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.download_sroie:
        download_sroie(args.download_sroie, args.sroie_git)
    if args.import_docile or args.docile_git:
        import_docile(args.import_docile, args.docile_git)
    wanted = set(args.sets.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cases: list[Case] = []
        sets = {
            "invoice2data": invoice2data_cases,
            "ru_scans": lambda: ru_scan_cases(root / "ru_scans", args.ru_scans),
            "sroie": lambda: downloaded_cases("sroie"),
            "docile": lambda: downloaded_cases("docile"),
        }
        for name, make in sets.items():
            if name in wanted:
                made = make()
                cases.extend(made[: args.limit] if args.limit else made)
        from docbatch_gui.config.profile import load_profile

        threshold = load_profile().review_threshold
        paths = {"offline": ("offline", {})}
        if args.live:
            paths["claude"] = ("sync", {})  # the key and model from the operator's settings
        figures: dict[str, Any] = {"files": len(cases), "review_threshold": threshold}
        for path, (mode, extra) in paths.items():
            found = read_all(cases, mode, root / f"data_{path}", **extra)
            per_field, per_language = score(cases, found, threshold)
            table(path, per_field)
            key = [per_field[n] for n in KEY_FIELDS]
            asked = sum(t.right + t.wrong + t.missing for t in key)
            high = sum(t.high for t in per_field.values())
            high_right = sum(t.high_right for t in per_field.values())
            pages = sum(f["pages"] for f in found.values())
            cost = sum(f["cost_usd"] for f in found.values())
            figures[path] = {
                "fields": {n: t.as_dict() for n, t in per_field.items()},
                "key_fields_right_share": round(sum(t.right for t in key) / asked, 3)
                if asked
                else None,
                "by_language": {lang: t.as_dict() for lang, t in sorted(per_language.items())},
                "wrong_high_confidence": sum(t.wrong_high for t in per_field.values()),
                "high_confidence_right_share": round(high_right / high, 3) if high else None,
                "pages": pages,
                "usd_per_page": round(cost / pages, 6) if pages and path != "offline" else None,
            }
            figures[path]["by_set"] = by_set(cases, found, threshold)
            for name, one in figures[path]["by_set"].items():
                print(
                    f"{path}: {name}: number/date/total right {one['key_fields_right_share']},"
                    f" above threshold right {one['high_confidence_right_share']},"
                    f" wrong above threshold {one['wrong_high_confidence']}"
                )
            print(f"{path}: number/date/total right {figures[path]['key_fields_right_share']}")
        figures["sets"] = sorted({c.set_name for c in cases})
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
