"""``docbatch doctor``: check each configured backend and say what is wrong.

Each check returns a status and one sentence an operator can act on, kept as its
English template and values (``findings.Phrase``) so the terminal says it in the
run's language and ``--json`` in English. Nothing here prints secrets: a key is
reported as set or not set, never shown.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docbatch_gui.config.profile import load_profile
from docbatch_gui.diagnostics import connections
from docbatch_gui.diagnostics.connections import anthropic_probe
from docbatch_gui.diagnostics.findings import Check, Phrase, Status, joined, phrase
from docbatch_gui.diagnostics.live import live_check, thinking_said
from docbatch_gui.diagnostics.webhook_check import webhook_reachable
from docbatch_gui.engine.ocr_languages import languages_problem
from docbatch_gui.engine.routing import route_for
from docbatch_gui.extras import MissingExtra, available
from docbatch_gui.i18n import N_, NN_, NP_
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

DATA_DIRECTORY = NP_("doctor check", "data directory")
RENDERER = NP_("doctor check", "renderer")
#: a model's status in the catalogue, as the doctor names it
MODEL_STATUSES = (NP_("model status", "current"), NP_("model status", "legacy"))


def _data_dir(settings: Settings) -> Check:
    path = settings.data_dir
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path):
            pass
    except OSError as exc:
        said = N_("{path} is not writable ({error}); set DOCBATCH_DATA_DIR to a writable folder")
        return Check.of(DATA_DIRECTORY, Status.FAIL, phrase(said, path=path, error=exc.strerror))
    free = shutil.disk_usage(path).free / 2**30
    status = Status.WARN if free < 1 else Status.OK
    return Check.of(
        DATA_DIRECTORY, status, phrase(N_("{path} ({free:.1f} GiB free)"), path=path, free=free)
    )


def _privacy(settings: Settings) -> Check:
    """Other users of the machine must not read scans, text or fields."""
    problems = permission_problems(settings.data_dir)
    name = NP_("doctor check", "data permissions")
    if problems:
        shown = ", ".join(problems[:3])
        fix = privacy_fix(settings.data_dir)
        said = (
            phrase(
                N_("readable by other users: {paths} and {more} more. Fix with: {fix}"),
                paths=shown,
                more=len(problems) - 3,
                fix=fix,
            )
            if len(problems) > 3
            else phrase(
                N_("readable by other users: {paths}. Fix with: {fix}"), paths=shown, fix=fix
            )
        )
        return Check.of(name, Status.WARN, said)
    return Check.of(name, Status.OK, phrase(N_("the data folder is private (owner only)")))


def _leftovers(settings: Settings) -> Check:
    """Temporaries of writers that crashed: harmless, swept at the next start."""
    name = NP_("doctor check", "leftover temporaries")
    none = Phrase(NP_("doctor", "none"), context="doctor")
    if settings.minio_endpoint or not settings.blob_dir.is_dir():
        return Check.of(name, Status.OK, none)
    left = LocalBlobStore(settings.blob_dir).leftover_temporaries()
    if not left:
        return Check.of(name, Status.OK, none)
    size = sum(p.stat().st_size for p in left if p.is_file()) / 2**20
    said = NN_(
        "{count} half-written file, {size:.1f} MB, in {folder} from a crash; DocBatch "
        "removes it when it next starts",
        "{count} half-written files, {size:.1f} MB, in {folder} from a crash; DocBatch "
        "removes them when it next starts",
    )
    folder = settings.blob_dir / ".incoming"
    return Check.of(name, Status.WARN, phrase(said, count=len(left), size=size, folder=folder))


def _store(settings: Settings) -> Check:
    name = NP_("doctor check", "store")
    if settings.mongodb_uri:
        elsewhere = N_("MongoDB (MONGODB_URI): see the MongoDB check")
        return Check.of(name, Status.INFO, phrase(elsewhere))

    if settings.db_path.exists():
        finding = quick_check(settings.db_path)
        if finding is not None:
            damaged = N_(
                "{path} is damaged (quick_check: {reason}). Stop DocBatch, restore the file "
                "from a backup, or move it aside to start empty."
            )
            return Check.of(
                name, Status.FAIL, phrase(damaged, path=settings.db_path, reason=finding)
            )
    try:
        store = SQLiteStore(settings.db_path)
    except Exception as exc:
        said = phrase(N_("cannot open {path}: {error}"), path=settings.db_path, error=str(exc))
        return Check.of(name, Status.FAIL, said)
    try:
        jobs = len(store.list_jobs())
        opened = NN_(
            "SQLite {path}, schema v{schema}, {count} job",
            "SQLite {path}, schema v{schema}, {count} jobs",
        )
        said = phrase(opened, path=settings.db_path, schema=store.schema_version, count=jobs)
        return Check.of(name, Status.OK, said)
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
            said = phrase(N_("the isolated renderer failed: {error}"), error=str(exc))
            return Check.of(RENDERER, Status.FAIL, said)
        elapsed = time.monotonic() - started
    rendered = NN_(
        "PyMuPDF {version} in a child process: {count} page in {seconds:.2f}s",
        "PyMuPDF {version} in a child process: {count} pages in {seconds:.2f}s",
    )
    workers = NN_("{count} worker", "{count} workers")
    said = joined(
        phrase(rendered, version=pymupdf.VersionBind, count=len(pages), seconds=elapsed),
        "; ",
        phrase(workers, count=settings.render_workers),
        f", JOB_TIMEOUT={settings.job_timeout:g}s",
    )
    return Check.of(RENDERER, Status.OK, said)


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
    name = "Claude (Anthropic)"
    if key is None:
        said = N_(
            "no ANTHROPIC_API_KEY: the offline extractor is used (no cost; text layer and OCR)"
        )
        return Check.of(name, Status.INFO, phrase(said))
    ok, message = anthropic_probe(settings, key, timeout=15)
    if not ok:
        return Check.of(name, Status.FAIL, message)
    at_once = NN_(
        "{probe}, up to {count} request at once", "{probe}, up to {count} requests at once"
    )
    return Check.of(name, Status.OK, phrase(at_once, probe=message, count=settings.max_concurrency))


def _model(settings: Settings) -> Check:
    """The model and what every request asks of it, from the catalogue."""
    info = load_catalogue().model(settings.anthropic_model)
    prices = info.prices
    thinking = thinking_said(settings.thinking_choice)
    parts: list[Phrase | str] = [
        phrase(
            N_(
                "{id} ({name}, {status}): ${input:g} in / ${output:g} out per million tokens, "
                "half in batch mode; {thinking}"
            ),
            id=info.id,
            name=info.name,
            status=Phrase(info.status, context="model status"),
            input=prices.input,
            output=prices.output,
            thinking=thinking,
        )
    ]
    route = route_for(settings, load_profile(settings.profile_path))
    if dict(profile_models(settings.profile_path)):  # the profile names models
        first = N_("; the profile reads documents with {model} first")
        parts.append(phrase(first, model=route.first))
        if route.escalation:  # docs/routing.md: only to a dearer model the settings allow
            parts.append(
                phrase(N_(" and sends those in doubt once to {model}"), model=route.escalation)
            )
    name = NP_("doctor check", "Claude model")
    if info.status != "current":
        parts.append(phrase(N_("; a legacy model: consider a current one")))
        return Check.of(name, Status.WARN, joined(*parts))
    return Check.of(name, Status.OK, joined(*parts))


def _ocr(settings: Settings) -> Check:
    engine = settings.ocr_engine
    if engine == "tesseract":
        if not tesseract_available():
            missing = N_(
                "OCR_ENGINE=tesseract but Tesseract with Russian and English data is not "
                "installed: apt-get install tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng"
            )
            return Check.of("OCR", Status.FAIL, phrase(missing))
        languages = ", ".join(tesseract_languages())

        problem = languages_problem(settings.ocr_languages)
        if problem is not None:
            said = phrase(
                "OCR_LANGUAGES={languages}: {problem}",
                languages=settings.ocr_languages,
                problem=problem,
            )
            return Check.of("OCR", Status.FAIL, said)
        said = phrase(
            "Tesseract ({installed}); OCR_LANGUAGES={languages}",
            installed=languages,
            languages=settings.ocr_languages,
        )
        return Check.of("OCR", Status.OK, said)
    if engine == "google_vision":
        if not available("google.cloud.vision"):
            extra = MissingExtra("OCR_ENGINE=google_vision", "vision")
            return Check.of("OCR", Status.FAIL, extra.message)
        where = settings.google_vision_endpoint or "vision.googleapis.com"
        creds = settings.google_application_credentials
        credentials = (
            phrase(N_("credentials {path}"), path=creds)
            if creds
            else phrase(N_("credentials from the environment"))
        )
        said = phrase(
            N_("Google Cloud Vision at {where}, {credentials}"),
            where=where,
            credentials=credentials,
        )
        return Check.of("OCR", Status.INFO, said)
    said = phrase(N_("OCR_ENGINE=none: scans without a text layer go to review with empty fields"))
    return Check.of("OCR", Status.INFO, said)


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
            said = (
                phrase("{message} ({details})", message=result.message, details=result.details)
                if result.details
                else phrase("{message}", message=result.message)
            )
            checks.append(Check.of(name, Status.OK if result.ok else Status.FAIL, said))
    # Redis is pinged over its protocol, without its client; the work needs the client
    celery = settings.execution == "celery" or bool(settings.celery_broker_url)
    for name, needed, module in (
        ("REDIS_URL", bool(settings.redis_url), "redis"),
        ("Celery", celery, "celery"),
    ):
        if needed and not available(module):
            checks.append(Check.of(name, Status.FAIL, MissingExtra(name, "team").message))
    creds = settings.google_application_credentials
    if creds and not creds.is_file():
        missing = N_("GOOGLE_APPLICATION_CREDENTIALS points to {path}, which does not exist")
        checks.append(Check.of("Google Cloud Vision", Status.FAIL, phrase(missing, path=creds)))
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
            results.append(Check.of(check.__name__.strip("_"), Status.FAIL, str(exc)))
        if results[-1].name == DATA_DIRECTORY and results[-1].status is Status.FAIL:
            break
    return results + _team_backends(settings) + _webhook(settings)


def _webhook(settings: Settings) -> list[Check]:
    """Only when WEBHOOK_URL is set: does anything answer there."""
    found = webhook_reachable(settings)
    if found is None:
        return []
    ok, said = found
    return [Check.of(NP_("doctor check", "webhook"), Status.OK if ok else Status.FAIL, said)]


def run_live(settings: Settings, *, batch: bool = False) -> list[Check]:
    """``doctor --live``: the real prompt and schema sent to Claude (``live_check``)."""
    key = _anthropic_key(settings)
    if key is None:
        no_key = N_(
            "no ANTHROPIC_API_KEY: set one (Settings → Claude, or the environment) to check "
            "extraction against the real API"
        )
        return [Check.of("live: Claude", Status.FAIL, phrase(no_key))]
    try:
        steps = asyncio.run(live_check(settings, key, batch=batch))
    except Exception as exc:  # the check itself broke: say so, never a traceback
        return [Check.of("live: Claude", Status.FAIL, f"{type(exc).__name__}: {exc}")]
    return [
        Check.of(
            f"live: {s.name}",
            Status.OK if s.ok else Status.FAIL,
            phrase(N_("{step} ({seconds:.1f} s)"), step=s.said or s.detail, seconds=s.seconds),
            s.cost_usd,
        )
        for s in steps
    ]
