"""A Celery task trusts nothing in its message: ids are integers, paths stay inside
SHARED_FOLDER (someone who reaches the broker must not read or write other files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.distributed.arguments import (
    RefusedArgument,
    budget_run_argument,
    registry_config_argument,
    shared_path,
    task_id_argument,
)
from docbatch_gui.settings.model import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    (tmp_path / "shared").mkdir()
    return Settings(DOCBATCH_DATA_DIR=tmp_path / "data", SHARED_FOLDER=tmp_path / "shared")


def test_paths_outside_the_shared_folder_are_refused(settings: Settings, tmp_path: Path) -> None:
    shared = (tmp_path / "shared").resolve()
    assert shared_path(settings, "ledger.xlsx", "file") == shared / "ledger.xlsx"
    assert shared_path(settings, str(shared / "a" / "b.xlsx"), "file") == shared / "a/b.xlsx"
    for attack in ("/etc/passwd", "../data/docbatch.sqlite3", "a/../../x.xlsx", "", 7, None):
        with pytest.raises(RefusedArgument):
            shared_path(settings, attack, "file")
    (shared / "link").symlink_to("/etc")
    with pytest.raises(RefusedArgument, match="outside SHARED_FOLDER"):
        shared_path(settings, "link/passwd", "file")
    unset = settings.model_copy(update={"shared_folder": None})
    with pytest.raises(RefusedArgument, match="SHARED_FOLDER, which is not set"):
        shared_path(unset, str(shared / "ledger.xlsx"), "file")


def test_ids_and_configs_must_be_what_they_say(settings: Settings) -> None:
    assert task_id_argument(3, "job") == 3
    for bad in (True, "3", -1, 0, 2.5, {"$gt": 0}):
        with pytest.raises(RefusedArgument):
            task_id_argument(bad, "job")
    assert registry_config_argument(settings, {"mapping": {}}) == {"mapping": {}}
    assert registry_config_argument(settings, '{"mapping": {}}') == {"mapping": {}}
    with pytest.raises(RefusedArgument):
        registry_config_argument(settings, "/etc/passwd")


def test_a_foreign_task_message_with_a_path_is_refused_by_the_task(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docbatch_gui.distributed import tasks

    monkeypatch.setattr(tasks, "task_settings", lambda: settings)
    for task, args in (
        (tasks.registry_export, (1, "/tmp/anywhere.xlsx")),
        (tasks.registry_import, ("/etc/passwd", {"mapping": {}})),
        (tasks.process_job, ("1; rm -rf /",)),
    ):
        result = task.apply(args=args)
        assert result.failed(), task.name
        assert isinstance(result.result, RefusedArgument), result.result


def test_a_budget_run_is_none_or_the_gate_s_hex_id() -> None:
    run = "0123456789abcdef" * 2
    assert budget_run_argument(None) is None
    assert budget_run_argument(run) == run
    for forged in ("", "x" * 32, run.upper(), run[:-1], 7, ["a"], run + "0"):
        with pytest.raises(RefusedArgument, match="budget run"):
            budget_run_argument(forged)
