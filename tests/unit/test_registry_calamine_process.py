"""calamine in a child process: the same rows as in this one, no child left behind, and
openpyxl when the child cannot give the sheet.

The sheets here are small, so ``CHILD_FROM`` is lowered to send them to the child.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import psutil
import pytest

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.progress import Canceled, CancelToken, Progress
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.registry import calamine_process, excel
from docbatch_gui.registry.config import load_config
from docbatch_gui.registry.excel import open_sheet
from docbatch_gui.registry.importer import preview, read_registry
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.storage.sqlite import SQLiteStore
from scripts.big_registry import write_big_registry
from tests.unit.test_registry_import import SEED_CONFIG, build_registry
from tests.unit.test_registry_xlsx_read import read, same_values, write_book

pytestmark = [
    pytest.mark.skipif(not calamine_process.IN_CHILD, reason="a child only on Linux"),
    pytest.mark.filterwarnings("ignore:Workbook contains no default style"),
]


@pytest.fixture(autouse=True)
def _every_sheet_to_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(excel, "CHILD_FROM", 0)


def readers() -> list[psutil.Process]:
    """This process's calamine children that still run (a zombie has ended)."""
    alive = []
    for child in psutil.Process().children(recursive=True):
        try:
            if calamine_process._MODULE in " ".join(child.cmdline()):
                alive.append(child)
        except psutil.Error:  # ended meanwhile
            continue
    return alive


@pytest.mark.slow  # starts the calamine child
def test_the_child_reads_what_calamine_in_this_process_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_book(tmp_path / "t.xlsx")
    in_child = read(path)
    monkeypatch.setattr(excel, "IN_CHILD", False)
    assert read(path) == in_child
    assert in_child[1:] == (6, "calamine")
    assert in_child[0] == same_values(read(path, reader="openpyxl")[0])


@pytest.mark.slow  # starts the calamine child
def test_an_import_through_the_child_is_the_one_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_book(tmp_path / "i.xlsx")
    cfg = load_config({"mapping": {"number": "A", "date": "B", "amount": "C"},
                       "skip_rows_containing": ["итого"]})  # fmt: skip

    def run() -> tuple[Any, ...]:
        imported = read_registry(path, cfg, chunk_size=2)
        return [row for chunk in imported for row in chunk], imported.filtered, imported.stats

    through_child = run()
    monkeypatch.setattr(excel, "IN_CHILD", False)
    assert run() == through_child
    assert len(through_child[0]) == 6


@pytest.mark.slow  # starts the calamine child
def test_a_sheet_the_scan_refuses_kills_the_child_before_openpyxl_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(excel, "CALAMINE_BUDGET", 0)
    with open_sheet(write_book(tmp_path / "t.xlsx"), None) as sheet:
        assert sheet.reader == "openpyxl"
        assert readers() == []


@pytest.mark.slow  # starts the calamine child
def test_a_sheet_left_half_read_leaves_no_child(tmp_path: Path) -> None:
    path = tmp_path / "big.xlsx"
    write_big_registry(path, 3000, 5)  # more than one frame, more than the pipe holds
    with open_sheet(path, None) as sheet:
        assert sheet.reader == "calamine"
        assert next(sheet.rows)[:2] == ("Колонка 1", "Колонка 2")
    assert readers() == []


@pytest.mark.slow  # starts the calamine child
def test_a_child_that_ends_without_the_sheet_leaves_it_to_openpyxl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    """A crash, the memory cap, a missing module: the same rows, from openpyxl."""
    path = write_book(tmp_path / "t.xlsx")
    reference = read(path, reader="openpyxl")
    monkeypatch.setattr(calamine_process, "_MODULE", "docbatch_gui.registry.no_such_child")
    with caplog.at_level(logging.INFO, logger="docbatch_gui.registry.xlsx_read"):
        assert read(path) == reference
    assert "calamine: exit code 1" in caplog.text and "no_such_child" in caplog.text


@pytest.mark.slow  # starts the calamine child
def test_calamine_over_the_memory_cap_ends_the_child_not_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    """What the cap is for: an allocation past it fails in the child, and the sheet
    is read by openpyxl."""
    path = tmp_path / "big.xlsx"
    write_big_registry(path, 300, 5)
    monkeypatch.setattr(calamine_process, "MEMORY_CAP", 1)  # a byte more than at start
    with caplog.at_level(logging.INFO, logger="docbatch_gui.registry.xlsx_read"):
        rows, _, reader = read(path)
    assert reader == "openpyxl" and len(rows) == 301
    assert "(calamine: " in caplog.text  # a panic it reports, or an abort


def test_without_a_child_calamine_runs_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    path = write_book(tmp_path / "t.xlsx")
    monkeypatch.setattr(calamine_process, "child_command", lambda module: [str(tmp_path / "x")])
    with caplog.at_level(logging.INFO, logger="docbatch_gui.registry.xlsx_read"):
        assert read(path)[1:] == (6, "calamine")
    assert "no child" in caplog.text


def both_ways(monkeypatch: pytest.MonkeyPatch, run: Any) -> tuple[Any, Any]:
    """``run()`` with the rows parsed in the child, then in this process."""
    in_child = run()
    with monkeypatch.context() as patch:
        patch.setattr(excel, "IN_CHILD", False)
        here = run()
    return in_child, here


def outcome_of(run: Any) -> Any:
    """What a run gives: its rows, filtered samples and statistics, or its error."""
    try:
        return run()
    except DocBatchError as exc:
        return type(exc), str(exc), exc.file


# slow: the seed workbook parsed twice, once in a child (about 6 s under load)
@pytest.mark.slow
def test_the_seed_registry_parses_the_same_in_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Merged headers, fill-down, keywords, required and too-few filters, formulas."""
    path = build_registry(tmp_path / "реестр.xlsx")

    def run() -> Any:
        imported = read_registry(path, load_config(SEED_CONFIG), chunk_size=2)
        return [r for chunk in imported for r in chunk], imported.filtered, imported.stats

    in_child, here = both_ways(monkeypatch, run)
    assert in_child == here
    assert [r.row for r in in_child[0]] == [5, 6, 7, 10]
    preview_child, preview_here = both_ways(
        monkeypatch, lambda: preview(path, load_config(SEED_CONFIG), rows=4)
    )
    assert preview_child == preview_here and len(preview_child.rows) == 4


@pytest.mark.parametrize(
    "patch",
    [
        {"header_row": 40, "data_start_row": 41, "column_header_row": {}},
        {"mapping": {**SEED_CONFIG["mapping"], "inn": "Z"}},
    ],
    ids=["header-beyond-end", "missing-column"],
)
@pytest.mark.slow  # starts the calamine child
def test_an_import_error_in_the_child_is_raised_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, patch: dict[str, Any]
) -> None:
    path = build_registry(tmp_path / "реестр.xlsx")
    config = load_config({**SEED_CONFIG, **patch})
    in_child, here = both_ways(
        monkeypatch, lambda: outcome_of(lambda: list(read_registry(path, config)))
    )
    assert in_child == here and issubclass(in_child[0], DocBatchError)


@pytest.mark.slow
def test_a_child_killed_mid_sheet_is_one_sentence_and_leaves_no_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the first chunk: the child cannot have finished, as it waits for
    room in the pipe and in the frames read ahead (two here) while the chunk is held."""
    monkeypatch.setattr(calamine_process, "_AHEAD", 2)
    path = tmp_path / "big.xlsx"
    write_big_registry(path, 40_000, 3)
    run = iter(read_registry(path, load_config({"mapping": {"number": "A"}}), chunk_size=500))
    assert len(next(run)) == 500
    (child,) = readers()
    child.kill()
    with pytest.raises(calamine_process.ReaderStopped) as raised:
        for _chunk in run:
            pass
    text = str(raised.value)
    assert text.startswith("big.xlsx: the workbook reader ended after ") and "exit code -9" in text
    assert "\n" not in text and raised.value.file == str(path)
    assert readers() == []


@pytest.mark.slow
def test_a_streamed_import_canceled_midway_changes_nothing_and_leaves_no_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A re-import canceled after its first chunk: the registry keeps its rows, no
    staging copy is left, and the child that was parsing ahead is gone."""
    monkeypatch.setattr(calamine_process, "_AHEAD", 2)
    store = SQLiteStore(tmp_path / "db.sqlite3")
    service = RegistryService(store)
    path = tmp_path / "big.xlsx"
    write_big_registry(path, 300, 3)
    config = {"mapping": {"number": "A"}}
    first = service.import_registry(path, config)
    write_big_registry(path, 40_000, 3)
    cancel = CancelToken()

    def progress(step: Progress) -> None:
        cancel.cancel()  # after the first chunk is stored

    with pytest.raises(Canceled):
        service.import_registry(path, config, progress=progress, cancel=cancel)
    assert readers() == []
    assert store.count_registry_rows(first.registry_id) == 300
    assert store.list_registries(staging=True) == store.list_registries()
    assert store.get_registry(first.registry_id).status is RegistryStatus.CONFIGURED
    store.close()
