"""The app resolves as Windows wheels, proven from Linux: the built wheel with
``[gui,vision,team]`` (and ``[dev]``, what the Windows CI job installs) against the
lock, for ``win_amd64`` and the supported Pythons, every package a binary wheel.

pip's ``--platform`` and ``--python-version`` choose wheel tags only: it evaluates
environment markers (``sys_platform == 'linux'``) against the interpreter it runs in
(pypa/pip#6117, pypa/pip#10050). Run as is on Linux, the command would still ask for
``keyrings.cryptfile``, which Windows does not get and which has no wheel. So pip
runs here with the marker environment of a Windows CPython (``WINDOWS_MARKERS``), and
the markers of ``pyproject.toml`` are proven too: ``pywin32`` comes in,
``keyrings.cryptfile`` stays out.

Needs PyPI (CI reaches it). Resolving a case takes pip up to half a minute of CPU:
one to three minutes on two quiet cores, ten at a load average of 22 (the [dev] case
took 609 s, its limit was 800 s). Its limits only guard against a hang, never against
a slow machine: pip itself gives up on a stalled connection (``--timeout``, retries).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.integration.test_wheel import build_wheel, clean_env

#: a hang guard for one case (with the wheel's build, which the first case pays)
HANG_GUARD_S = 3600
pytestmark = [pytest.mark.slow, pytest.mark.timeout(HANG_GUARD_S)]

#: PEP 508 markers of CPython on 64-bit Windows (python_version is added per case)
WINDOWS_MARKERS = {
    "os_name": "nt",
    "sys_platform": "win32",
    "platform_system": "Windows",
    "platform_machine": "AMD64",
    "platform_release": "10",
    "platform_version": "10.0.20348",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}
#: pip, run with the marker environment of argv[1]'s Windows Python
PIP_AS_WINDOWS = """\
import sys
from pip._vendor.packaging import markers

version, markers_json = sys.argv[1], sys.argv[2]
ambient = markers.default_environment

def windows():
    env = ambient()
    env.update(__import__("json").loads(markers_json))
    env.update(python_version=version, python_full_version=version + ".0",
               implementation_version=version + ".0")
    return env

markers.default_environment = windows
from pip._internal.cli.main import main
sys.exit(main(sys.argv[3:]))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel").resolve()
    return build_wheel(tmp, clean_env(tmp))


def resolve_for_windows(wheel: Path, extras: str, python: str, tmp: Path) -> dict[str, str]:
    """The brief's dry run under Windows markers: each package's name and wheel file."""
    report = tmp / "report.json"
    command = [
        sys.executable, "-c", PIP_AS_WINDOWS, python, json.dumps(WINDOWS_MARKERS),
        "install", "--dry-run", "--ignore-installed", "--target", str(tmp / "T"),
        "--platform", "win_amd64", "--python-version", python, "--only-binary=:all:",
        "-c", str(REPO / "requirements" / "dev.lock"), f"{wheel}[{extras}]",
        "--report", str(report), "--quiet", "--disable-pip-version-check",
    ]  # fmt: skip
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=HANG_GUARD_S - 300, cwd=tmp
    )
    errors = "\n".join(line for line in result.stderr.splitlines() if "is ignored" not in line)
    assert result.returncode == 0, f"{extras} for Windows, Python {python}:\n{errors[-4000:]}"
    installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    return {
        item["metadata"]["name"].lower().replace("_", "-").replace(".", "-"): item["download_info"][
            "url"
        ].rsplit("/", 1)[-1]
        for item in installs
    }


#: the app for the lowest supported Python; [dev] (a superset: what the Windows CI job
#: installs) for the newest the job runs. [dev] on 3.11 passed too (2 minutes more).
@pytest.mark.parametrize(("extras", "python"), [("gui,vision,team", "3.11"), ("dev", "3.12")])
def test_the_app_resolves_as_windows_wheels(
    wheel: Path, extras: str, python: str, tmp_path: Path
) -> None:
    files = resolve_for_windows(wheel, extras, python, tmp_path)
    assert "keyrings-cryptfile" not in files  # Linux's fallback store, no wheel
    assert files["pywin32"].endswith("win_amd64.whl")  # the Job Objects, the ACLs
    assert "pyside6-essentials" in files and "pymupdf" in files
    tag = f"cp{python.replace('.', '')}"
    foreign = {
        name: file
        for name, file in files.items()
        if not file.endswith(("-none-any.whl", "-win_amd64.whl")) or "linux" in file
    }
    assert foreign == {}, f"not Windows wheels: {foreign}"
    native = [f for f in files.values() if f.endswith("win_amd64.whl")]
    assert all(tag in f or "abi3" in f or "py3-none" in f for f in native), native
