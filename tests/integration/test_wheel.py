"""The wheel is a whole program: built from the source, installed into a fresh venv
outside the checkout, it processes a bundled sample and passes the window's
self-test, reading its data from the installed package and never from the checkout.

No network: the wheel is built with the test environment's own build backend and
installed without dependencies; the venv reaches those dependencies through a
``.pth`` line naming this environment's site-packages. That folder's own ``.pth``
files are not run from there, so the editable install that points at a checkout
does not come along.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, RESOURCES

pytestmark = pytest.mark.slow  # under the suite's hang guard (pytest-timeout, 900 s)

SAMPLE = "en_invoice_INV-2024-0042.pdf"
#: what building a wheel needs from the checkout (a copy keeps build/ and egg-info out of it)
SOURCES = ("pyproject.toml", "setup.py", "README.md", "docbatch_gui")
#: the compiled catalogues the build writes from the .po sources (setup.py)
CATALOGUES = ("docbatch_gui/resources/locale/ru/LC_MESSAGES/docbatch.mo",)


def run(command: list[str], *, env: dict[str, str], cwd: Path, timeout: float = 600) -> str:
    """``command``'s output; ``timeout`` only guards against a hang (a loaded machine
    takes twenty times the CPU time of a quiet one)."""
    result = subprocess.run(
        command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, f"{command}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


def data_files() -> set[str]:
    """The package's data files in the checkout, as wheel member names."""
    return {
        path.relative_to(REPO).as_posix()
        for path in RESOURCES.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py"
    }


def build_wheel(tmp: Path, env: dict[str, str]) -> Path:
    source = tmp / "source"
    source.mkdir()
    # no .mo: a checkout may hold one compiled at first use; the build must make its own
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.mo")
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=ignore)
        else:
            shutil.copy2(REPO / name, source / name)
    dist = tmp / "dist"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    run([*pip_wheel, "--no-index", "-q", "-w", str(dist), str(source)], env=env, cwd=tmp)
    (wheel,) = dist.glob("docbatch_gui-*.whl")
    return wheel


def make_venv(tmp: Path, wheel: Path, env: dict[str, str]) -> Path:
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], env=env, cwd=tmp)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    run([*install, "--no-index", "-q", str(wheel)], env=env, cwd=tmp)
    site = run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        env=env,
        cwd=tmp,
    ).strip()
    ours = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    (Path(site) / "test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return venv


def clean_env(tmp: Path) -> dict[str, str]:
    """This environment less anything that could lead back to the checkout."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DOCBATCH_", "PYTHON", "VIRTUAL_ENV", "PYTEST_"))
    }
    env |= {
        "DOCBATCH_DATA_DIR": str(tmp / "data"),
        "DOCBATCH_SETTINGS_FILE": str(tmp / "settings.json"),
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "QT_QPA_PLATFORM": "offscreen",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    return env


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout (bin/) of POSIX")
def test_the_installed_wheel_processes_a_sample_and_passes_the_self_test(tmp_path: Path) -> None:
    tmp = tmp_path.resolve()
    env = clean_env(tmp)
    wheel = build_wheel(tmp, env)
    with zipfile.ZipFile(wheel) as archive:
        members = set(archive.namelist())
        missing = (data_files() | set(CATALOGUES)) - members
        assert not missing, f"data files missing from the wheel: {sorted(missing)}"
        compiled = archive.read(CATALOGUES[0])
    assert "задание".encode() in compiled, "the .mo holds the Russian of the .po"

    venv = make_venv(tmp, wheel, env)
    bin_dir = venv / "bin"
    work = tmp / "work"  # a cwd with no docbatch_gui in it
    work.mkdir()
    where = json.loads(
        run(
            [
                str(bin_dir / "python"),
                "-c",
                "import json, docbatch_gui, docbatch_gui.resources as r; "
                "print(json.dumps([docbatch_gui.__file__, str(r.resources_dir())]))",
            ],
            env=env,
            cwd=work,
        )
    )
    package, resources = (Path(p).resolve() for p in where)
    assert package.is_relative_to(venv), package
    assert resources.is_relative_to(venv), resources
    assert not package.is_relative_to(REPO.resolve())
    # installed compiled: nothing needs compiling at first run
    assert (resources / "locale" / "ru" / "LC_MESSAGES" / "docbatch.mo").is_file()

    sample = work / SAMPLE
    shutil.copy2(resources / "samples" / SAMPLE, sample)
    processed = run(
        [str(bin_dir / "docbatch"), "process", str(sample), "--wait", "--json"], env=env, cwd=work
    )
    jobs = json.loads(processed)
    assert [job["state"] for job in jobs] == ["done"], processed

    self_test = run([str(bin_dir / "docbatch-gui"), "--self-test"], env=env, cwd=work)
    report = json.loads(self_test.strip().splitlines()[-1])
    assert report["ok"] is True, report
