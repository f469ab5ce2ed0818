"""The desktop bundle: the self-test from source (fast) and from a fresh PyInstaller
build (slow, opt-in with ``DOCBATCH_TEST_INSTALLER=1``: it takes minutes)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def offscreen_env(tmp_path: Path) -> dict[str, str]:
    """Offscreen Qt, and a config home of its own so no real QSettings is touched."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    env.pop("DOCBATCH_RESOURCES", None)
    return env


def last_json(stdout: str) -> dict[str, object]:
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert lines, f"no JSON report in: {stdout!r}"
    return json.loads(lines[-1])


@pytest.mark.slow
def test_self_test_from_source(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "docbatch_gui", "--self-test"],
        env=offscreen_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    report = last_json(result.stdout)
    assert report["ok"] is True
    assert report["missing_modules"] == {}
    assert report["icon_sizes"] == [16, 24, 32, 48, 64, 128, 256]


@pytest.mark.slow
def test_window_reports_its_first_show(tmp_path: Path) -> None:
    """The hidden option the start-up benchmark uses: show, paint, print, exit."""
    result = subprocess.run(
        [sys.executable, "-m", "docbatch_gui", "--exit-after-show", "--data-dir", str(tmp_path)],
        env=offscreen_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert last_json(result.stdout)["shown_at"] > 0


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.skipif(
    os.environ.get("DOCBATCH_TEST_INSTALLER") != "1",
    reason="builds the PyInstaller bundle (minutes); set DOCBATCH_TEST_INSTALLER=1",
)
def test_bundle_builds_and_passes_its_self_test(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    build = subprocess.run(
        [
            sys.executable,
            str(REPO / "build_installer.py"),
            "--dist",
            str(dist),
            "--work",
            str(tmp_path / "build"),
            "--no-test",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    # Copied away from where it was built, and run from an unrelated folder without the
    # source tree on the path: only the bundle's own contents count.
    app = shutil.copytree(dist / "DocBatch", tmp_path / "elsewhere" / "DocBatch", symlinks=True)
    shutil.rmtree(dist)
    exe = app / ("DocBatch.exe" if sys.platform == "win32" else "DocBatch")
    icon = app / "_internal" / "docbatch_gui" / "resources" / "icons" / "docbatch-256.png"
    assert icon.is_file(), "the bundle has no application icon"
    env = offscreen_env(tmp_path)
    env.pop("PYTHONPATH", None)
    result = subprocess.run(
        [str(exe), "--self-test"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    report = last_json(result.stdout)
    assert report["ok"] is True
    assert report["missing_modules"] == {}
    assert report["icon_sizes"], "the window of the bundle has no icon"
