"""The Celery application, configured from the project's settings.

Tasks are acknowledged late and rejected when their worker process dies, so a task
whose worker was killed goes back to the queue instead of being lost; the store's
attempt fencing makes the re-run safe. One task at a time per process
(prefetch 1): a long registry search never holds short jobs hostage.

A task runs the same engine as the desktop; its children (render, OCR, offline
extraction) are plain subprocesses in their own process groups, not
``multiprocessing`` children, so Celery's daemonic pool processes may start them.
"""

from __future__ import annotations

import os

from celery import Celery

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.settings.model import Settings

app = Celery("docbatch", include=["docbatch_gui.distributed.tasks"])

#: longer than any task's hard limit (65 min): an unacknowledged task is handed to
#: another worker only after this, when its worker vanished with its connection
VISIBILITY_TIMEOUT = 2 * 3600


def broker_url(settings: Settings) -> str:
    url = settings.celery_broker_url or settings.redis_url
    if not url:
        raise ConfigError(
            "Distributed execution needs CELERY_BROKER_URL (or REDIS_URL), e.g. "
            "redis://redis-host:6379/0"
        )
    return url


def configure(settings: Settings) -> Celery:
    """Point the app at the team's Redis; workers and clients call this once."""
    broker = broker_url(settings)
    app.conf.update(
        broker_url=broker,
        result_backend=settings.redis_url or broker,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_track_started=True,
        task_default_queue="docbatch",
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
        result_expires=7 * 24 * 3600,
        worker_hijack_root_logger=False,
    )
    # Celery keeps the result backend it made on first use (shared, or per thread when
    # not thread-safe): one made before this call (a task's state read while
    # unconfigured, or the settings of before) would keep answering "no result
    # backend" or reading the old Redis.
    app._backend_cache = None
    vars(app._local).pop("backend", None)
    # Pool processes and tasks read the same settings, data directory included.
    os.environ.setdefault("DOCBATCH_DATA_DIR", str(settings.data_dir))
    return app
