"""Platform calls only in ``docbatch_gui/system/``: the rest of the package runs on
Linux, Windows and macOS alike because it never calls them itself.

The scan reads every module's syntax tree (not its text: a docstring may name
SIGKILL) for the names, attributes, imports and keyword arguments that exist on one
platform only, and for the permission calls that ``system.privacy`` owns.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from docbatch_gui import system

PACKAGE = Path(__file__).resolve().parents[2] / "docbatch_gui"
SYSTEM = PACKAGE / "system"

#: attributes whose use outside ``system`` is refused, whatever object they are read on
FORBIDDEN_ATTRIBUTES = frozenset(
    {"killpg", "setsid", "setpgrp", "getpgid", "setrlimit", "prctl", "SIGKILL", "setpriority",
     "chmod", "startfile"}
)  # fmt: skip
#: modules that exist on one platform only
FORBIDDEN_MODULES = frozenset(
    {"fcntl", "resource", "msvcrt", "winreg", "pywintypes", "ntsecuritycon", "win32api",
     "win32con", "win32job", "win32process", "win32security"}
)  # fmt: skip
#: keyword arguments of subprocess calls that exist on one platform only
FORBIDDEN_KEYWORDS = frozenset({"preexec_fn", "start_new_session", "creationflags"})


WORDS = FORBIDDEN_ATTRIBUTES | FORBIDDEN_MODULES | FORBIDDEN_KEYWORDS


def platform_calls(source: str) -> list[str]:
    """Each platform-only use in ``source``, as ``line: what``. A source that names
    none of the words is not parsed: most modules, and the scan stays fast."""
    if not any(word in source for word in WORDS) and "os.kill" not in source:
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        what = None
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            what = node.attr
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_ATTRIBUTES:
            what = node.id
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
            what = ", ".join(names) or None
        elif isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")[0]
            names = [a.name for a in node.names if a.name in FORBIDDEN_ATTRIBUTES]
            what = node.module if module in FORBIDDEN_MODULES else ", ".join(names) or None
        elif isinstance(node, ast.keyword) and node.arg in FORBIDDEN_KEYWORDS:
            what = f"{node.arg}="
        elif isinstance(node, ast.Constant) and node.value in FORBIDDEN_KEYWORDS:
            what = repr(node.value)  # {"preexec_fn": ...} passed on as **options
        elif _liveness_probe(node):
            what = "os.kill(pid, 0)"  # Windows: TerminateProcess, not a question
        if what:
            found.append(f"{getattr(node, 'lineno', 0)}: {what}")
    return found


def _liveness_probe(node: ast.AST) -> bool:
    """``os.kill(pid, 0)``: on POSIX it asks whether ``pid`` lives; on Windows any
    signal but the console ones ends the process (``processes.process_alive`` asks)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "kill"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "os"
        and len(node.args) == 2
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value == 0
    )


def test_no_module_outside_system_calls_the_platform_directly() -> None:
    offenders = {
        str(path.relative_to(PACKAGE.parent)): calls
        for path in sorted(PACKAGE.rglob("*.py"))
        if SYSTEM not in path.parents
        and (calls := platform_calls(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, f"platform calls outside docbatch_gui/system/: {offenders}"


@pytest.mark.parametrize(
    "source",
    [
        "import os, signal\nos.killpg(1, signal.SIGKILL)",
        "import os\nos.setsid()",
        "import resource\nresource.setrlimit(resource.RLIMIT_AS, (1, 1))",
        "from resource import setrlimit",
        "libc.prctl(1, 9)",
        "import fcntl",
        "from fcntl import fcntl as f",
        "subprocess.Popen(['x'], preexec_fn=f)",
        "asyncio.create_subprocess_exec('x', start_new_session=True)",
        "subprocess.Popen(['x'], creationflags=512)",
        "options = {'preexec_fn': f}",
        "import win32job",
        "from signal import SIGKILL",
        "os.chmod(p, 0o600)",
        "import os\nos.kill(pid, 0)",
    ],
)
def test_the_scan_finds_each_platform_call(source: str) -> None:
    assert platform_calls(source), source


def test_the_scan_ignores_words_in_strings_and_portable_calls() -> None:
    source = '"""SIGKILL, killpg and fcntl in a docstring."""\nimport os\nos.kill(1, 15)\n'
    assert platform_calls(source) == []


def test_system_itself_has_the_calls_for_both_platforms() -> None:
    """The package the scan exempts is where they are: both implementations exist."""
    posix = platform_calls((SYSTEM / "_posix.py").read_text(encoding="utf-8"))
    windows = platform_calls((SYSTEM / "_windows.py").read_text(encoding="utf-8"))
    assert any("killpg" in c for c in posix) and any("win32job" in c for c in windows)


@pytest.mark.parametrize(
    ("platform", "module"),
    [
        ("linux", "docbatch_gui.system._posix"),
        ("darwin", "docbatch_gui.system._posix"),
        ("win32", "docbatch_gui.system._windows"),
    ],
)
def test_each_platform_gets_its_implementation(platform: str, module: str) -> None:
    assert system.implementation(platform) == module


def test_this_platform_runs_the_implementation_chosen_for_it() -> None:
    from docbatch_gui.system import bounds, privacy, processes

    chosen = system.implementation()
    for public in (bounds, privacy, processes):
        assert public._impl.__name__ == chosen
