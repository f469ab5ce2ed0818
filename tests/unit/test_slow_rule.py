"""The fast loop's rule (tests/conftest.py): a test that starts a Python process or a
server, or builds the main window, is slow, and one not marked so fails and says why."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from tests import conftest


@pytest.fixture
def noted() -> Iterator[list[str]]:
    """What the audit hook notes while the test calls it by hand; emptied after, so this
    test (a fast one) is not failed for the processes it only pretended to start."""
    conftest._slow_work.clear()
    yield conftest._slow_work
    conftest._slow_work.clear()


def popen(*argv: str) -> None:
    conftest._started("subprocess.Popen", (argv[0], list(argv), None, None))


@pytest.mark.parametrize(
    "argv",
    [
        (sys.executable, "-m", "docbatch_gui.pipeline.child"),
        ("/usr/bin/python3", "-c", "pass"),
        ("/usr/bin/redis-server", "--port", "6390"),
        ("dovecot", "-F"),
        ("/bin/sh", "-c", "exec python3 -m docbatch_gui"),
    ],
)
def test_a_python_process_or_a_server_is_noted(argv: tuple[str, ...], noted: list[str]) -> None:
    popen(*argv)
    assert len(noted) == 1 and argv[0] in noted[0]


@pytest.mark.parametrize(
    "argv",
    [
        ("msgfmt", "-c", "messages.po"),
        ("/usr/bin/ldd", "/usr/bin/python3"),
        ("sh", "-c", "sleep 60 </dev/null >/dev/null 2>&1 & echo $!"),
    ],
)
def test_a_native_tool_is_not_noted(argv: tuple[str, ...], noted: list[str]) -> None:
    popen(*argv)
    assert noted == []


def test_a_fork_and_os_system_are_noted(noted: list[str]) -> None:
    conftest._started("os.fork", ())
    conftest._started("os.system", (b"python3 -c pass",))
    conftest._started("open", ("/etc/hostname", "r", 0))
    assert len(noted) == 2


def test_an_unmarked_test_that_did_slow_work_fails_and_a_marked_one_does_not(
    noted: list[str],
) -> None:
    unmarked = SimpleNamespace(nodeid="t.py::test_x", get_closest_marker=lambda name: None)
    marked = SimpleNamespace(nodeid="t.py::test_y", get_closest_marker=lambda name: name)
    conftest.note_slow_work("started python3 -c pass")
    conftest.pytest_runtest_teardown(marked)  # type: ignore[arg-type]
    with pytest.raises(pytest.fail.Exception, match=r"test_x is not marked slow but started"):
        conftest.pytest_runtest_teardown(unmarked)  # type: ignore[arg-type]
    assert noted == []


class Item:
    """What the collection hook reads of a test: its name, fixtures and markers."""

    def __init__(self, name: str, *fixtures: str) -> None:
        self.name, self.fixturenames, self.marks = name, list(fixtures), set[str]()

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.add(mark.name)

    def get_closest_marker(self, name: str) -> str | None:
        return name if name in self.marks else None


def test_a_test_using_a_fixture_that_starts_a_server_or_the_window_is_marked_slow() -> None:
    items = [Item("test_model", "tmp_path"), Item("test_row", "window", "qsettings")]
    items.append(Item("test_ping", "redis_url", "redis_server"))
    conftest.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [(i.name, i.marks) for i in items] == [
        ("test_row", {"slow"}),
        ("test_ping", {"slow"}),
        ("test_model", set()),
    ]
