"""``docbatch doctor``: check each configured backend and say what is wrong.

Each check returns a status and one sentence an operator can act on. Nothing here
prints secrets: a key is reported as set or not set, never shown.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from docbatch_gui.config.profile import load_profile
from docbatch_gui.diagnostics import connections
from docbatch_gui.diagnostics.connections import anthropic_probe
from docbatch_gui.diagnostics.live import live_check
from docbatch_gui.diagnostics.webhook_check import webhook_reachable
from docbatch_gui.engine.ocr_languages import languages_problem
from docbatch_gui.engine.routing import route_for
from docbatch_gui.extras import MissingExtra, available
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.pipeline.ocr_tesseract import tesseract_available, tesseract_languages
from docbatch_gui.pipeline.prepare import prepare_pool, run_prepare
from docbatch_gui.pipeline.render import PrepareTask
from docbatch_gui.settings.checks import profile_models
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.health import permission_problems, quick_check
from docbatch_gui.storage.sqlite import SQLiteStore
from docbatch_gui.system.privacy import privacy_fix


class Status(StrEnum):
    OK = "ok"
    INFO = "info"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
    cost_usd: float | None = None  # what a live check step paid

    def as_dict(self) -> dict[str, object]:
        shown: dict[str, object] = {k: str(v) for k, v in asdict(self).items() if k != "cost_usd"}
        if self.cost_usd is not None:
            shown["cost_usd"] = self.cost_usd
        return shown


def _data_dir(settings: Settings) -> Check:
    path = settings.data_dir
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path):
            pass
    except OSError as exc:
        return Check(
            "data directory",
            Status.FAIL,
            f"{path} is not writable ({exc.strerror}); set DOCBATCH_DATA_DIR to a writable folder",
        )
    free = shutil.disk_usage(path).free / 2**30
    status = Status.WARN if free < 1 else Status.OK
    return Check("data directory", status, f"{path} ({free:.1f} GiB free)")


def _privacy(settings: Settings) -> Check:
    """Other users of the machine must not read scans, text or fields."""
    problems = permission_problems(settings.data_dir)
    if problems:
        shown = ", ".join(problems[:3]) + (
            f" and {len(problems) - 3} more" if len(problems) > 3 else ""
        )
        return Check(
            "data permissions",
            Status.WARN,
            f"readable by other users: {shown}. Fix with: {privacy_fix(settings.data_dir)}",
        )
    return Check("data permissions", Status.OK, "the data folder is private (owner only)")


def _leftovers(settings: Settings) -> Check:
    """Temporaries of writers that crashed: harmless, swept at the next start."""
    if settings.minio_endpoint or not settings.blob_dir.is_dir():
        return Check("leftover temporaries", Status.OK, "none")
    left = LocalBlobStore(settings.blob_dir).leftover_temporaries()
    if not left:
        return Check("leftover temporaries", Status.OK, "none")
    size = sum(p.stat().st_size for p in left if p.is_file()) / 2**20
    return Check(
        "leftover temporaries",
        Status.WARN,
        f"{len(left)} half-written {'file' if len(left) == 1 else 'files'}, {size:.1f} MB, in "
        f"{settings.blob_dir / '.incoming'} "
        "from a crash; DocBatch removes them when it next starts",
    )


def _store(settings: Settings) -> Check:
    if settings.mongodb_uri:
        return Check("store", Status.INFO, "MongoDB (MONGODB_URI): see the MongoDB check")

    if settings.db_path.exists():
        finding = quick_check(settings.db_path)
        if finding is not None:
            return Check(
                "store",
                Status.FAIL,
                f"{settings.db_path} is damaged (quick_check: {finding}). Stop DocBatch, "
                "restore the file from a backup, or move it aside to start empty.",
            )
    try:
        store = SQLiteStore(settings.db_path)
    except Exception as exc:
        return Check("store", Status.FAIL, f"cannot open {settings.db_path}: {exc}")
    try:
        jobs = len(store.list_jobs())
        return Check(
            "store",
            Status.OK,
            f"SQLite {settings.db_path}, schema v{store.schema_version}, {jobs} jobs",
        )
    finally:
        store.close()


def _renderer(settings: Settings) -> Check:
    """Render one generated page in an isolated child, as a real job would."""
    # deferred: PyMuPDF, 2.1 s to import
    import pymupdf

    with tempfile.TemporaryDirectory(dir=settings.data_dir) as tmp:
        pdf = Path(tmp) / "doctor.pdf"
        document = pymupdf.open()
        document.new_page().insert_text((72, 72), "DocBatch doctor")
        document.save(pdf)
        pages: list[object] = []

        async def noop(_: object) -> None:
            return None

        async def keep(page: object) -> None:
            pages.append(page)

        task = PrepareTask(str(pdf), pdf.name, "pdf")
        started = time.monotonic()
        try:
            asyncio.run(_render_once(task, started + 60, noop, keep))
        except Exception as exc:
            return Check("renderer", Status.FAIL, f"the isolated renderer failed: {exc}")
        elapsed = time.monotonic() - started
    return Check(
        "renderer",
        Status.OK,
        f"PyMuPDF {pymupdf.VersionBind} in a child process: {len(pages)} page "
        f"in {elapsed:.2f}s; {settings.render_workers} workers, "
        f"JOB_TIMEOUT={settings.job_timeout:g}s",
    )


async def _render_once(task: Any, deadline: float, on_count: Any, on_page: Any) -> None:
    async with prepare_pool(1) as pool:
        await run_prepare(task, deadline, pool, on_count=on_count, on_page=on_page)


def _anthropic_key(settings: Settings) -> str | None:
    """The key from the environment or settings, else the OS keyring."""
    if settings.anthropic_api_key:
        return settings.anthropic_api_key.get_secret_value()
    return keyring_secret("ANTHROPIC_API_KEY")


def _anthropic(settings: Settings) -> Check:
    """A real call that costs nothing (count_tokens): proves the key and the network."""
    key = _anthropic_key(settings)
    if key is None:
        return Check(
            "Claude (Anthropic)",
            Status.INFO,
            "no ANTHROPIC_API_KEY: the offline extractor is used (no cost; text layer and OCR)",
        )
    ok, message = anthropic_probe(settings, key, timeout=15)
    if not ok:
        return Check("Claude (Anthropic)", Status.FAIL, message)
    return Check(
        "Claude (Anthropic)",
        Status.OK,
        f"{message}, up to {settings.max_concurrency} requests at once",
    )


def _model(settings: Settings) -> Check:
    """The model and what every request asks of it, from the catalogue."""
    info = load_catalogue().model(settings.anthropic_model)
    prices = info.prices
    detail = (
        f"{info.id} ({info.name}, {info.status}): ${prices.input:g} in / ${prices.output:g} "
        f"out per million tokens, half in batch mode; {settings.thinking_choice.label}"
    )
    route = route_for(settings, load_profile(settings.profile_path))
    if dict(profile_models(settings.profile_path)):  # the profile names models
        detail += f"; the profile reads documents with {route.first} first"
        if route.escalation:  # docs/routing.md: only to a dearer model the settings allow
            detail += f" and sends those in doubt once to {route.escalation}"
    if info.status != "current":
        return Check(
            "Claude model", Status.WARN, detail + "; a legacy model: consider a current one"
        )
    return Check("Claude model", Status.OK, detail)


def _ocr(settings: Settings) -> Check:
    engine = settings.ocr_engine
    if engine == "tesseract":
        if not tesseract_available():
            return Check(
                "OCR",
                Status.FAIL,
                "OCR_ENGINE=tesseract but Tesseract with Russian and English data is not "
                "installed: apt-get install tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng",
            )
        languages = ", ".join(tesseract_languages())

        problem = languages_problem(settings.ocr_languages)
        if problem is not None:
            return Check("OCR", Status.FAIL, f"OCR_LANGUAGES={settings.ocr_languages}: "
                         + problem.english)  # fmt: skip
        return Check(
            "OCR", Status.OK, f"Tesseract ({languages}); OCR_LANGUAGES={settings.ocr_languages}"
        )
    if engine == "google_vision":
        if not available("google.cloud.vision"):
            missing = MissingExtra("OCR_ENGINE=google_vision", "vision")
            return Check("OCR", Status.FAIL, str(missing))
        where = settings.google_vision_endpoint or "vision.googleapis.com"
        creds = settings.google_application_credentials
        detail = f"credentials {creds}" if creds else "credentials from the environment"
        return Check("OCR", Status.INFO, f"Google Cloud Vision at {where}, {detail}")
    return Check(
        "OCR",
        Status.INFO,
        "OCR_ENGINE=none: scans without a text layer go to review with empty fields",
    )


def _team_backends(settings: Settings) -> list[Check]:
    """Each configured team backend, through the Settings tab's *Test connection*."""
    checks = []
    for name, value, test in (
        ("MongoDB", settings.mongodb_uri, connections.test_mongodb),
        ("MinIO", settings.minio_endpoint, connections.test_minio),
        ("Redis", settings.redis_url, connections.test_redis),
        ("Celery broker", settings.celery_broker_url, connections.test_celery_broker),
    ):
        if value:
            result = asyncio.run(test(settings))
            said = result.message.english
            said = f"{said} ({result.details})" if result.details else said
            checks.append(Check(name, Status.OK if result.ok else Status.FAIL, said))
    # Redis is pinged over its protocol, without its client; the work needs the client
    celery = settings.execution == "celery" or bool(settings.celery_broker_url)
    for name, needed, module in (
        ("REDIS_URL", bool(settings.redis_url), "redis"),
        ("Celery", celery, "celery"),
    ):
        if needed and not available(module):
            checks.append(Check(name, Status.FAIL, str(MissingExtra(name, "team"))))
    creds = settings.google_application_credentials
    if creds and not creds.is_file():
        checks.append(
            Check(
                "Google Cloud Vision",
                Status.FAIL,
                f"GOOGLE_APPLICATION_CREDENTIALS points to {creds}, which does not exist",
            )
        )
    return checks


CHECKS: list[Callable[[Settings], Check]] = [
    _data_dir,
    _privacy,
    _leftovers,
    _store,
    _renderer,
    _anthropic,
    _model,
    _ocr,
]


def run_checks(settings: Settings) -> list[Check]:
    results = []
    for check in CHECKS:
        try:
            results.append(check(settings))
        except Exception as exc:  # a broken check is itself a finding
            results.append(Check(check.__name__.strip("_"), Status.FAIL, str(exc)))
        if results[-1].name == "data directory" and results[-1].status is Status.FAIL:
            break
    return results + _team_backends(settings) + _webhook(settings)


def _webhook(settings: Settings) -> list[Check]:
    """Only when WEBHOOK_URL is set: does anything answer there."""
    found = webhook_reachable(settings)
    if found is None:
        return []
    ok, said = found
    return [Check("webhook", Status.OK if ok else Status.FAIL, said)]


def run_live(settings: Settings, *, batch: bool = False) -> list[Check]:
    """``doctor --live``: the real prompt and schema sent to Claude (``live_check``)."""
    key = _anthropic_key(settings)
    if key is None:
        return [
            Check(
                "live: Claude",
                Status.FAIL,
                "no ANTHROPIC_API_KEY: set one (Settings → Claude, or the environment) to "
                "check extraction against the real API",
            )
        ]
    try:
        steps = asyncio.run(live_check(settings, key, batch=batch))
    except Exception as exc:  # the check itself broke: say so, never a traceback
        return [Check("live: Claude", Status.FAIL, f"{type(exc).__name__}: {exc}")]
    return [
        Check(
            f"live: {s.name}",
            Status.OK if s.ok else Status.FAIL,
            f"{s.detail} ({s.seconds:.1f} s)",
            s.cost_usd,
        )
        for s in steps
    ]
