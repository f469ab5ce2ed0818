"""RegistryService on a real SQLite store: status on failure, cancel, concurrency."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from docbatch_gui.coordination.workload import WorkloadBusy
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.progress import Canceled, CancelToken
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.registry.importer import normalize_field
from docbatch_gui.registry.index import normalize_key
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.storage.sqlite import SQLiteStore


@pytest.fixture
def service(tmp_path: Path):
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    docs = [Document(job.id, i, "invoice", 1, 1, fields={"number": f"N-{i}"}) for i in range(300)]
    store.replace_documents(job.id, docs)
    wb = openpyxl.Workbook()
    wb.active.append(["Номер"])
    for i in range(300):
        wb.active.append([f"{i}"])
    wb.save(tmp_path / "r.xlsx")
    yield RegistryService(store), tmp_path / "r.xlsx"
    store.close()


def test_import_reports_progress_and_search_progress_every_hundred(service) -> None:
    svc, book = service
    seen: list[tuple[int, int | None]] = []
    summary = svc.import_registry(
        book, {"mapping": {"number": "A"}}, progress=lambda p: seen.append((p.done, p.total))
    )
    assert summary.kept == 300 and seen[-1] == (300, 300)
    steps: list[int] = []
    result = svc.search(summary.registry_id, progress=lambda p: steps.append(p.done))
    assert steps == [100, 200, 300] and result.matched == 300
    assert svc.store.get_registry(summary.registry_id).status is RegistryStatus.SEARCHED


def test_canceled_search_leaves_status_error_with_the_reason(service) -> None:
    svc, book = service
    reg = svc.import_registry(book, {"mapping": {"number": "A"}}).registry_id
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Canceled):
        svc.search(reg, cancel=cancel)
    stored = svc.store.get_registry(reg)
    assert stored.status is RegistryStatus.ERROR and "canceled" in (stored.task_error or "")


def test_second_concurrent_search_is_refused(service) -> None:
    svc, book = service
    reg = svc.import_registry(book, {"mapping": {"number": "A"}}).registry_id
    another = svc.workload.track_task("registry_search", "another")
    with another, pytest.raises(WorkloadBusy, match="already running"):
        svc.search(reg)
    assert svc.store.get_registry(reg).status is RegistryStatus.CONFIGURED  # untouched
    svc.store.update_registry(reg, status=RegistryStatus.SEARCHING)  # elsewhere, just now
    with pytest.raises(WorkloadBusy, match="searching in another process"):
        svc.search(reg)
    with pytest.raises(WorkloadBusy, match="searching in another process"):
        svc.import_registry(book, {"mapping": {"number": "A"}}, force=True)
    svc.store.update_registry(reg, status=RegistryStatus.CONFIGURED)
    assert svc.search(reg).matched == 300  # released in finally
    assert svc.workload.active() == {}


def test_failed_new_import_leaves_no_registry(service, tmp_path: Path) -> None:
    svc, _book = service
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip")
    with pytest.raises(Exception, match=r"bad\.xlsx"):
        svc.import_registry(bad, {"mapping": {"number": "A"}})
    assert svc.store.list_registries() == []


@given(
    st.dates(date(1900, 1, 1), date(2099, 12, 31)),
    st.sampled_from(["%d.%m.%Y", "%Y-%m-%d", "%d/%m/%Y"]),
)
def test_registry_and_document_dates_fold_to_the_same_key(day, fmt) -> None:
    """Import normalises the registry side, the index the document side: they agree."""
    registry_side = normalize_key("date", normalize_field("date", day.strftime(fmt)))
    assert registry_side == normalize_key("date", day.isoformat()) == day.toordinal()


@given(st.decimals(min_value=0, max_value=10**9, places=2))
def test_registry_and_document_amounts_fold_to_the_same_cents(value) -> None:
    ru = f"{value:,.2f}".replace(",", " ").replace(".", ",")
    assert normalize_key("amount", normalize_field("amount", ru)) == int(value * 100)
