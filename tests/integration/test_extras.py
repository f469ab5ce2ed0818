"""Optional dependency groups: the core runs without them, and a feature that needs
one says which extra to install in one line.

The test environment has every extra installed, so their absence is simulated: a
``sitecustomize`` on ``PYTHONPATH`` refuses to import them, in the process and in
every child it starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.extras import MissingExtra, available, require
from tests.conftest import REPO, SAMPLES

#: what the gui, vision and team extras bring (and what they pull in themselves)
EXTRA_MODULES = (
    "PySide6",
    "shiboken6",
    "qasync",
    "google.cloud.vision",
    "pymongo",
    "bson",
    "gridfs",
    "minio",
    "redis",
    "celery",
    "kombu",
)

BLOCKER = f"""
import sys

BLOCKED = {EXTRA_MODULES!r}


class _NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None


sys.meta_path.insert(0, _NotInstalled())
"""


def core_only_env(tmp_path: Path) -> dict[str, str]:
    """An environment in which no extra can be imported."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCBATCH_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(REPO)])
    env["DOCBATCH_DATA_DIR"] = str(tmp_path / "data")
    env["DOCBATCH_SETTINGS_FILE"] = str(tmp_path / "settings.json")
    return env


def run(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def test_require_names_the_extra_and_the_command() -> None:
    with pytest.raises(MissingExtra) as caught:
        require("vision", "no_such_package_for_docbatch", "Google Vision")
    assert str(caught.value) == (
        "Google Vision needs the 'vision' extra: pip install 'docbatch-gui[vision]'"
    )
    require("gui", "json", "anything")  # installed: nothing happens


def test_available_does_not_fail_on_a_missing_parent() -> None:
    assert not available("no_such_package_for_docbatch.sub.module")
    assert available("docbatch_gui.extras")


@pytest.mark.slow  # starts the window's process
def test_the_window_without_its_extra_says_so_in_one_line(tmp_path: Path) -> None:
    result = run(core_only_env(tmp_path), "-m", "docbatch_gui", "--self-test")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "pip install 'docbatch-gui[gui]'" in lines[0]


# slow: three CLI processes, each importing the package afresh
@pytest.mark.slow
def test_a_team_backend_without_its_extra_is_one_sentence(tmp_path: Path) -> None:
    env = {**core_only_env(tmp_path), "MONGODB_URI": "mongodb://localhost:1/docbatch"}
    result = run(env, "-m", "docbatch_gui.cli", "jobs")
    assert result.returncode == ExitCode.CONFIG  # a missing extra is a configuration error
    assert "Traceback" not in result.stderr
    assert "'team' extra: pip install 'docbatch-gui[team]'" in result.stderr


@pytest.mark.slow
def test_the_core_commands_need_no_extra(tmp_path: Path) -> None:
    """``--help``, ``doctor`` and ``process --wait`` on the embedded default."""
    env = core_only_env(tmp_path)
    helped = run(env, "-m", "docbatch_gui.cli", "--help")
    assert helped.returncode == 0, helped.stderr
    doctor = run(env, "-m", "docbatch_gui.cli", "doctor")
    assert "Traceback" not in doctor.stdout + doctor.stderr
    assert "docbatch-gui[" not in doctor.stdout, doctor.stdout
    sample = SAMPLES / "en_invoice_INV-2024-0042.pdf"
    processed = run(env, "-m", "docbatch_gui.cli", "process", str(sample), "--wait", "--json")
    assert processed.returncode == 0, processed.stderr
    assert '"state": "done"' in processed.stdout, processed.stdout
