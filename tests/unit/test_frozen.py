"""How children are started from source and from the frozen bundle."""

from __future__ import annotations

import sys

import pytest

from docbatch_gui import frozen


def test_from_source_children_are_python_dash_m() -> None:
    assert frozen.child_command("docbatch_gui.pipeline.child") == [
        sys.executable,
        "-m",
        "docbatch_gui.pipeline.child",
    ]
    assert frozen.bundle_dir() is None


def test_frozen_children_re_run_the_program_with_the_hidden_flag(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert frozen.child_command("docbatch_gui.pipeline.child") == [
        sys.executable,
        "--child",
        "docbatch_gui.pipeline.child",
    ]
    assert str(frozen.bundle_dir()) == str(tmp_path)


def test_dispatch_ignores_ordinary_arguments_and_refuses_other_modules() -> None:
    assert frozen.dispatch_child([]) is None
    assert frozen.dispatch_child(["--self-test"]) is None
    assert frozen.dispatch_child(["--child", "os"]) == 2


def test_dispatch_runs_the_module_as_main(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["DocBatch"])
    # docbatch_gui.__main__ would start the GUI; the CLI module exits through argparse.
    with pytest.raises(SystemExit) as exit_info:
        frozen.dispatch_child(["--child", "docbatch_gui.cli", "--help"])
    assert exit_info.value.code == 0
