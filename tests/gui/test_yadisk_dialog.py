"""File → Import from Yandex.Disk… on the real window against the fake Disk API."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from docbatch_gui._qt.tasks import drain
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import SERVICE
from tests import builders
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring
from tests.fakes.yadisk_server import TOKEN, FakeYandexDisk
from tests.gui.conftest import until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeYandexDisk]:
    def pdf(n: int) -> bytes:
        return builders.text_pdf(tmp_path / f"{n}.pdf", text=f"Invoice No. {n}").read_bytes()

    files = {f"/Scans/inv{n}.pdf": pdf(n) for n in range(3)}
    files["/Scans/copy.pdf"] = files["/Scans/inv1.pdf"]
    with FakeYandexDisk(files) as server:
        yield server


@pytest.fixture
def gui_settings(tmp_path: Path, fake: FakeYandexDisk) -> Settings:
    return load_settings(
        data_dir=tmp_path / "data", PROCESSING_MODE="offline", OCR_ENGINE="none",
        RENDER_WORKERS=1, YADISK_API_URL=fake.url,
    )  # fmt: skip


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


def notices(window: Any) -> list[str]:
    shown: list[str] = []
    window.ctx.notifier.shown.connect(lambda text, _level: shown.append(text))
    return shown


async def fill(window: Any, source: str, token: str = "") -> None:
    window.yadisk_action.trigger()
    await until(lambda: window.yadisk.dialog is not None, 10, "the dialog")
    dialog = window.yadisk.dialog
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()  # nothing to import yet
    dialog.source.setText(source)
    dialog.token.setText(token)
    ok.click()


async def test_a_folder_with_a_token_is_downloaded_queued_and_the_token_kept(
    window: Any, ring: MemoryKeyring, fake: FakeYandexDisk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    shown = notices(window)
    await fill(window, "disk:/Scans", TOKEN)
    await until(lambda: any("Yandex.Disk" in s for s in shown), 60, "the import's notice")
    await drain()
    model = window.queue_tab.model
    await until(lambda: len(model.jobs()) == 4, 10, f"the queued jobs, after {shown}")
    names = sorted(j.file_name for j in model.jobs())
    assert names == ["copy.pdf", "inv0.pdf", "inv1.pdf", "inv2.pdf"]
    assert "Queued 3 files from Yandex.Disk. 1 already known" in shown[-1]
    assert ring.store[(SERVICE, "YADISK_TOKEN")] == TOKEN
    assert any(r.startswith("/v1/disk/resources?") for r in fake.requests)
    assert TOKEN not in caplog.text
    assert window.yadisk.progress is None  # the progress dialog is gone


async def test_a_refused_token_is_an_error_notice_and_nothing_queued(
    window: Any, ring: MemoryKeyring
) -> None:
    shown = notices(window)
    await fill(window, "disk:/Scans", "wrong-token")
    await until(lambda: any("failed" in s for s in shown), 60, "the failure notice")
    await drain()
    assert "401" in shown[-1]
    assert window.queue_tab.model.jobs() == []


async def test_cancel_in_the_dialog_does_nothing(window: Any, fake: FakeYandexDisk) -> None:
    window.yadisk_action.trigger()
    await until(lambda: window.yadisk.dialog is not None, 10, "the dialog")
    window.yadisk.dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    await drain()
    assert fake.requests == [] and window.queue_tab.model.jobs() == []
