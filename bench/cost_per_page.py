"""Cost per page of the bundled samples in batch mode, from the model catalogue.

The bundled samples (``docbatch_gui/resources/samples``) run through the real ``DocBatchApp`` in
batch mode against the strict fake Anthropic API (``tests/fakes``), with the default
model, effort and thinking. Two figures per page:

- **actual**: the usage the fake reports for each answer (its token counts follow the
  documented image formula ⌈w/28⌉·⌈h/28⌉ and about four characters a text token; the
  real tokenizer differs somewhat), priced by ``docbatch_gui/resources/models.json`` at batch
  prices;
- **estimate**: what DocBatch shows before sending, for every model in the catalogue
  with its own ``auto`` effort and thinking, on the same pages (the formula basis,
  no ``count_tokens``), so the models can be compared on one page mix.

Run: ``.venv/bin/python bench/cost_per_page.py``. The last line is one JSON object.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.app.facade import DocBatchApp  # noqa: E402
from docbatch_gui.engine.estimates import CostEstimator  # noqa: E402
from docbatch_gui.engine.extraction import page_groups  # noqa: E402
from docbatch_gui.llm.catalogue import Usage, load_catalogue  # noqa: E402
from docbatch_gui.settings.loading import load_settings  # noqa: E402
from tests.fakes.anthropic_server import FakeAnthropic  # noqa: E402

SAMPLES = ROOT / "docbatch_gui" / "resources" / "samples"


def main() -> None:
    catalogue = load_catalogue()
    with FakeAnthropic() as fake, tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            data_dir=Path(tmp) / "data",
            ANTHROPIC_API_KEY="bench-key",
            ANTHROPIC_BASE_URL=fake.url,
            POLL_INTERVAL=0.1,
        )
        app = DocBatchApp(settings)
        jobs = asyncio.run(app.run([j.id for j in app.add([SAMPLES], mode="batch").jobs]))
        pages = sum(j.pages or 0 for j in jobs)
        records = [r for j in jobs for r in app.store.list_requests(j.id)]
        usage = sum((Usage.of(r) for r in records), Usage())
        actual = sum(r.cost_usd or 0.0 for r in records)
        states = sorted({j.state.value for j in jobs})
        groups = [page_groups(app.store.list_pages(j.id), settings.group_size) for j in jobs]
        estimates = {}
        for model in catalogue.models:
            other = settings.model_copy(
                update={"anthropic_model": model, "max_output_tokens": 8192}
            )
            estimator = CostEstimator(app.store, other, app.profile)
            total = sum(estimator.for_pages(g, batch=True) or 0.0 for g in groups)
            estimates[model] = {
                "per_page_usd": round(total / pages, 7),
                "effort": other.thinking_choice.label,
            }
        app.close()
    choice = settings.thinking_choice
    print(f"samples: {len(jobs)} files, {pages} pages, states {states}")
    print(f"model {settings.anthropic_model}, {choice.label}, batch prices")
    print(
        f"usage: {usage.input_tokens} input, {usage.cache_write_tokens} cache write, "
        f"{usage.cache_read_tokens} cache read, {usage.output_tokens} output "
        f"({usage.thinking_tokens} thinking) tokens"
    )
    print(f"actual: ${actual:.6f} in all, ${actual / pages:.7f} per page")
    print("estimate per page, each model with its own auto effort and thinking:")
    for model, figures in estimates.items():
        print(f"  {model:<20} ${figures['per_page_usd']:.7f}  ({figures['effort']})")
    print(
        json.dumps(
            {
                "model": settings.anthropic_model,
                "effort": choice.label,
                "files": len(jobs),
                "pages": pages,
                "actual_usd": round(actual, 6),
                "actual_per_page_usd": round(actual / pages, 7),
                "thinking_tokens": usage.thinking_tokens,
                "estimate_per_page_usd": {m: f["per_page_usd"] for m, f in estimates.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
