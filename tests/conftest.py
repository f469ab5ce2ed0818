from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docbatch_gui.config import Settings, load_settings

if TYPE_CHECKING:
    from docbatch_gui.app import DocBatchApp

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "resources" / "samples"

# The tests must not pick up a developer's real keys or backends.
for variable in (
    "ANTHROPIC_API_KEY",
    "MONGODB_URI",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "MINIO_ENDPOINT",
):
    os.environ.pop(variable, None)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(data_dir=tmp_path / "data", JOB_TIMEOUT=60, RENDER_WORKERS=2)


@pytest.fixture
def app(settings: Settings) -> Iterator[DocBatchApp]:
    from docbatch_gui.app import DocBatchApp

    application = DocBatchApp(settings)
    yield application
    application.close()
