"""Tokens and dollars per page: naive sync, today's batch mode, and the request plan.

One mixed set of files goes three times through the real ``DocBatchApp`` against the
strict fake Anthropic API (``tests/fakes``), each time on a fresh data directory:

- **naive sync**: sync mode, every page as a full image (``page_plan`` ``image``),
  and no prompt cache: the usage the fake reports, with every prompt token priced as
  plain input;
- **batch today**: batch mode, every page as a full image, the five-minute cache
  mark on the shared prefix (as before the plan: always marked);
- **planned**: batch mode, ``page_plan`` ``auto`` (reliable born-digital pages as
  text plus a small image, scans as full images), the one-hour cache where the model
  takes it, and routing by difficulty when the profile names an escalation model.

The set is the bundled samples (``docbatch_gui/resources/samples``) plus generated
files: one-page born-digital invoices (``tests/builders.invoice_pdf``), born-digital
files of several documents (the Russian sample with an invoice added), and scans of
invoices (``tests/builders.scanned_pdf``: pictures only, read by Tesseract OCR).
The fake answers from the page text it is sent (the offline extractor), counts image
tokens by the documented formula ⌈w/28⌉·⌈h/28⌉ (docs: build-with-claude/vision)
and text at about four characters a token; prices come from the model catalogue
(``docbatch_gui/resources/models.json``).

Run: ``.venv/bin/python bench/cost.py [--born N] [--multi N] [--scans N] [--model M]
[--text-only] [--no-routing]`` (``--text-only``: the planned profile's tasks need no image, so
born-digital pages go without their small image). The last
line is one JSON object: ``{"pages", "naive_sync_usd_per_page",
"batch_usd_per_page", "planned_usd_per_page", "planned_over_naive", "text_pages",
"image_pages", "escalated_share", ...}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import docbatch_gui.engine.estimates as estimates  # noqa: E402
from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.config.profile import default_profile_path, load_profile  # noqa: E402
from docbatch_gui.domain.models import Job, RequestRecord  # noqa: E402
from docbatch_gui.domain.states import JobState  # noqa: E402
from docbatch_gui.llm.catalogue import Usage, load_catalogue  # noqa: E402
from docbatch_gui.pipeline.page_plan import PageKind, kind_of  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402
from tests import builders  # noqa: E402
from tests.fakes.anthropic_server import FakeAnthropic  # noqa: E402

SAMPLES = ROOT / "docbatch_gui" / "resources" / "samples"
EXTRACTED = (JobState.DONE, JobState.NEEDS_REVIEW)

# ---------------------------------------------------------------------------- routing
# The planned run reads as the bundled profile does by default (docs/routing.md): the
# settings' model, the catalogue's default (the cheap model), reads every page first,
# and a document it reads badly (a key field missing, below the review threshold, a
# failed check, a value not on its page) goes once to the profile's escalation model.
# The naive and batch runs use the strong model alone, as a system without routing
# must to read every page right. ``--no-routing`` plans without it.
FIRST_MODEL = load_catalogue().default_model
STRONG_MODEL = "claude-sonnet-5-5"
#: the bundled profile's own models (what a new install routes with)
ROUTING: dict[str, Any] = {
    "models": {k: v for k, v in asdict(load_profile().models).items() if v is not None}
}
NO_ROUTING: dict[str, Any] = {"models": {}}


@dataclass
class Run:
    name: str
    jobs: list[Job]
    records: list[RequestRecord]
    pages: int
    usage: Usage
    usd: float
    documents: list[tuple[str, str, int, int, str]]
    text_pages: int = 0
    image_pages: int = 0
    escalated_share: float = 0.0
    cache_hit_rate: float | None = None


def make_set(folder: Path, born: int, multi: int, scans: int) -> list[Path]:
    """The samples, plus generated born-digital and scanned files."""
    folder.mkdir(parents=True)
    paths = [shutil.copy(p, folder / p.name) for p in sorted(SAMPLES.iterdir()) if p.is_file()]
    invoices = []
    for n in range(max(born, scans)):
        amount = 1000 * (n + 3)
        invoices.append(
            builders.invoice_pdf(
                folder / f"invoice_{n + 1:03d}.pdf",
                number=f"{240 + n}",
                day=f"{(n % 27) + 1:02d}.0{(n % 9) + 1}.2024",
                total=f"{amount:,}".replace(",", " ") + ",00",
                vat=f"{amount / 6:,.2f}".replace(",", " ").replace(".", ","),
            )
        )
    paths += invoices[:born]
    for n in range(multi):  # an invoice, then the three documents of the Russian sample
        merged = pymupdf.open(invoices[n % len(invoices)])
        with pymupdf.open(SAMPLES / "ru_three_documents.pdf") as sample:
            merged.insert_pdf(sample)
        merged.save(folder / f"bundle_{n + 1:03d}.pdf")
        paths.append(folder / f"bundle_{n + 1:03d}.pdf")
    for n in range(scans):
        paths.append(builders.scanned_pdf(folder / f"scan_{n + 1:03d}.pdf", invoices[n]))
    return [Path(p) for p in paths]


def profile_with(tmp: Path, name: str, **changes: Any) -> Path:
    """A copy of the default profile with ``changes`` at its top level."""
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp / f"profile_{name}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@contextmanager
def five_minute_cache_always() -> Iterator[None]:
    """Today's batch mode, before the plan: the prefix always marked for the
    five-minute cache, whatever its length or the model."""
    original = estimates.cache_ttl
    estimates.cache_ttl = lambda model, prefix, *, batch: "5m"  # type: ignore[assignment]
    try:
        yield
    finally:
        estimates.cache_ttl = original


def run(
    name: str,
    files: list[Path],
    profile: Path,
    mode: str,
    fake: FakeAnthropic,
    tmp: Path,
    model: str,
) -> Run:
    fake.reset()
    settings = load_settings(
        data_dir=tmp / f"data_{name}",
        ANTHROPIC_API_KEY="bench-key",
        ANTHROPIC_BASE_URL=fake.url,
        POLL_INTERVAL=0.1,
        OCR_ENGINE="tesseract",
        ANTHROPIC_MODEL=model,
        JOB_TIMEOUT=600,
    )
    app = DocBatchApp(settings)
    app.profile = load_profile(profile)  # the run's profile
    try:
        jobs = asyncio.run(app.run([j.id for j in app.add(files, mode=mode).jobs]))
        records = [r for j in jobs for r in app.store.list_requests(j.id)]
        plan = app.profile.page_plan
        kinds = [kind_of(plan, p) for j in jobs for p in app.store.list_pages(j.id)]
        documents = [
            (j.file_name, d.doc_type, d.page_from, d.page_to, json.dumps(d.fields, sort_keys=True))
            for j in jobs
            for d in app.documents(j.id)
        ]
        batches = app.batches()
    finally:
        app.close()
    usage = sum((Usage.of(r) for r in records), Usage())
    prompt = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens
    return Run(
        name,
        jobs,
        records,
        sum(j.pages or 0 for j in jobs),
        usage,
        sum(r.cost_usd or 0.0 for r in records),
        documents,
        text_pages=sum(k is not PageKind.IMAGE for k in kinds),
        image_pages=sum(k is PageKind.IMAGE for k in kinds),
        escalated_share=escalated_share(jobs),
        cache_hit_rate=round(usage.cache_read_tokens / prompt, 4) if prompt and batches else None,
    )


def escalated_share(jobs: list[Job]) -> float:
    """The share of jobs the escalation model read again (routing by difficulty)."""
    return round(sum(j.escalated for j in jobs) / len(jobs), 4) if jobs else 0.0


def naive_usd(model: str, usage: Usage) -> float:
    """The usage with no prompt cache: every prompt token at the sync input price."""
    uncached = Usage(usage.prompt_tokens, usage.output_tokens)
    return load_catalogue().cost(model, uncached) or 0.0


def per_page(figure: float, pages: int) -> float:
    return round(figure / pages, 7) if pages else 0.0


def report(run_: Run, usd: float) -> None:
    u, n = run_.usage, max(1, run_.pages)
    states = sorted({j.state.value for j in run_.jobs})
    print(
        f"{run_.name:<12} {run_.pages} pages, states {states}: per page "
        f"{u.input_tokens / n:,.0f} input, {u.cache_write_tokens / n:,.0f} cache write, "
        f"{u.cache_read_tokens / n:,.0f} cache read, {u.output_tokens / n:,.0f} output "
        f"tokens; ${usd / n:.7f} per page (${usd:.6f} in all)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--born", type=int, default=12, help="one-page born-digital invoices")
    parser.add_argument("--multi", type=int, default=3, help="born-digital 5-page bundles")
    parser.add_argument("--scans", type=int, default=5, help="scanned one-page invoices")
    parser.add_argument(
        "--model",
        default=STRONG_MODEL,
        help="the model of the naive and batch runs, and of the planned run with --no-routing",
    )
    parser.add_argument(
        "--no-routing", action="store_true", help="the planned run without routing by difficulty"
    )
    parser.add_argument(
        "--text-only",
        action="store_true",
        help="the planned profile's tasks need no image: born-digital pages go as text only",
    )
    args = parser.parse_args()
    model = args.model
    logging.basicConfig(level=logging.WARNING)
    with FakeAnthropic(keep_image_data=False) as fake, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = make_set(root / "files", args.born, args.multi, args.scans)
        image_plan = {**_plan(), "mode": "image"}
        planned_plan = {**_plan(), "mode": "auto"}
        if args.text_only:
            planned_plan["image_tasks"] = {}
        images = profile_with(root, "image", page_plan=image_plan, **NO_ROUTING)
        routing = NO_ROUTING if args.no_routing else ROUTING
        planned = profile_with(root, "planned", page_plan=planned_plan, **routing)
        naive = run("naive sync", files, images, "sync", fake, root, model)
        with five_minute_cache_always():
            today = run("batch today", files, images, "batch", fake, root, model)
        first = model if args.no_routing else FIRST_MODEL
        plan = run("planned", files, planned, "batch", fake, root, first)
    naive_cost = naive_usd(model, naive.usage)
    uncached = Usage(naive.usage.prompt_tokens, naive.usage.output_tokens)
    report(replace(naive, usage=uncached), naive_cost)  # the tokens as naive sync pays them
    report(today, today.usd)
    report(plan, plan.usd)
    extracted = all(j.state in EXTRACTED for j in plan.jobs)
    same = sum((Counter(naive.documents) & Counter(plan.documents)).values())
    print(
        f"planned: {plan.text_pages} pages as text, {plan.image_pages} as images; "
        f"{len(plan.documents)} documents ({same} the same as naive sync's "
        f"{len(naive.documents)}); every job extracted: {extracted}; "
        f"prompt cache hit rate {plan.cache_hit_rate}"
    )
    pages = plan.pages
    figures = {
        "pages": pages,
        "files": len(files),
        "model": model,
        "small_image": not args.text_only,
        "naive_sync_usd_per_page": per_page(naive_cost, naive.pages),
        "batch_usd_per_page": per_page(today.usd, today.pages),
        "planned_usd_per_page": per_page(plan.usd, pages),
        "planned_over_naive": round(plan.usd / naive_cost, 4) if naive_cost else None,
        "batch_over_naive": round(today.usd / naive_cost, 4) if naive_cost else None,
        "text_pages": plan.text_pages,
        "image_pages": plan.image_pages,
        "escalated_share": plan.escalated_share,
        "routing": routing["models"] or None,
        "documents": len(plan.documents),
        "documents_same_as_naive": same,
        "all_extracted": extracted,
        "planned_cache_hit_rate": plan.cache_hit_rate,
    }
    print(json.dumps(figures))


def _plan() -> dict[str, Any]:
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    return dict(data.get("page_plan") or {})


if __name__ == "__main__":
    main()
