from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import hypothesis
import psutil
import pytest

from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.peers import SHARED_PIDS, MotoS3, RedisServer

if TYPE_CHECKING:
    from docbatch_gui.app.facade import DocBatchApp

REPO = Path(__file__).resolve().parents[1]
#: the package's bundled data, read here from the checkout
RESOURCES = REPO / "docbatch_gui" / "resources"
SAMPLES = RESOURCES / "samples"

# The tests must not pick up a developer's real keys or backends.
for variable in (
    "ANTHROPIC_API_KEY",
    "MONGODB_URI",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "MINIO_ENDPOINT",
):
    os.environ.pop(variable, None)
# Nor a developer's settings file: point at one that does not exist.
os.environ["DOCBATCH_SETTINGS_FILE"] = os.path.join(
    tempfile.gettempdir(), f"docbatch-tests-{os.getpid()}", "settings.json"
)

# No time limit on one hypothesis example (its default is 200 ms): a loaded machine
# takes longer, and a property holds or fails whatever the time. Registered before the
# test modules build their own settings, which inherit it.
hypothesis.settings.register_profile("any-machine", deadline=None)
hypothesis.settings.load_profile("any-machine")


#: the longest tests (seconds of CPU each), started first
LONGEST = (
    "test_a_sheet_past_calamines_budget_streams_in_bounded_memory",
    "test_the_app_resolves_as_windows_wheels",
)


# -- the fast loop: what is slow, by rule (docs/testing.md, "Markers") ------------------

#: Fixtures that start a server or build the main window: a test that uses one, itself
#: or through another fixture, is slow without saying so.
SLOW_FIXTURES = frozenset({"window", "redis_server", "moto_s3"})
#: Servers a test may start; any Python process counts too (the CLI, a render, calamine
#: or fake child, a Celery worker, ``python -c``, a fork of this process).
SERVERS = frozenset({"redis-server", "dovecot", "celery", "moto_server", "minio"})
#: Shells whose ``-c`` command is read for a Python process or a server in it.
SHELLS = frozenset({"sh", "bash", "dash"})
#: What the running test did that makes a test slow, noted as it happens.
_slow_work: list[str] = []


def note_slow_work(what: str) -> None:
    """Note that the running test did something only a slow test does (the GUI tests'
    conftest notes the main window); a test not marked slow fails for it."""
    _slow_work.append(what)


def _is_slow_program(word: str) -> bool:
    name = os.path.basename(word)
    return name.startswith("python") or name in SERVERS or word == sys.executable


def _started(event: str, args: tuple[Any, ...]) -> None:
    """Audit hook: note a process this one starts if it is a Python process or a server
    (for a shell, any word of its command). Called for every audited event, so it
    returns at once for the others."""
    if event not in _START_EVENTS:
        return
    if event in ("os.fork", "os.forkpty"):
        note_slow_work("forked this Python process")
        return
    if event == "os.system":
        program, argv = "sh", ["sh", "-c", os.fsdecode(args[0])]
    else:
        program, argv = (args[1], args[2]) if event == "os.spawn" else (args[0], args[1])
    program = os.fsdecode(program)
    words = [os.fsdecode(word) for word in argv] if isinstance(argv, list | tuple) else []
    if os.path.basename(program) in SHELLS and "-c" in words[:-1]:
        words = words[words.index("-c") + 1].split()
    else:
        words = [program]
    if any(_is_slow_program(word) for word in words):
        note_slow_work(f"started {os.fsdecode(program)} {' '.join(map(str, argv))[:200]}")


#: the audit events of a new process (subprocess and asyncio's subprocesses: Popen)
_START_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.posix_spawn",
        "os.exec",
        "os.spawn",
        "os.system",
        "os.fork",
        "os.forkpty",
    }
)
sys.addaudithook(_started)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses a fixture of ``SLOW_FIXTURES`` is marked slow (before ``-m``
    deselects). Then the longest tests first, then the slow ones, then the rest (each
    group in its collected order): xdist's worksteal hands each worker half of the list
    and lets the idle one take from the other, so a long test started last no longer
    holds the run open alone at the end. Every worker sorts the same collection the same
    way."""
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)

    def rank(item: pytest.Item) -> int:
        if item.name.split("[")[0] in LONGEST:
            return 0
        return 1 if item.get_closest_marker("slow") else 2

    items.sort(key=rank)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before the test's fixtures are set up: their processes count as the test's."""
    _slow_work.clear()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """A test not marked slow that started a Python process or a server, or built the
    main window (its fixtures' setup and teardown included), fails here and says what
    it did: the fast loop stays the tests that do neither."""
    if _slow_work and not item.get_closest_marker("slow"):
        done = "; ".join(dict.fromkeys(_slow_work))
        _slow_work.clear()
        pytest.fail(
            f"{item.nodeid} is not marked slow but {done}: mark it "
            "@pytest.mark.slow (docs/testing.md, Markers)",
            pytrace=False,
        )


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection imported (the SDKs, Qt, the test modules) lives for the whole
    run: move it out of the garbage collector's sight, so that each collection (after
    every GUI test, and Python's own) walks only what the tests made. A full
    collection over those ~300,000 objects costs about 0.2 s."""
    gc.collect()
    gc.freeze()


# -- no process outlives its test ---------------------------------------------------------

#: Every process the tests start inherits this tag (unless a test hands it a bare
#: environment), so one that lost its parent and was re-parented to init is still found
#: as ours. Each pytest process (an xdist worker too) tags its own descendants.
PROCESS_TAG = f"DOCBATCH_TESTS_PROCESS_TAG={os.getpid()}-{time.time_ns()}"
os.environ.__setitem__(*PROCESS_TAG.split("="))
#: Started once per interpreter and ending with it, by design.
LONG_LIVED = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")
#: Processes already seen without our tag (everyone else's), not read again while alive.
_foreign: set[int] = set()


class LeakedProcessWarning(UserWarning):
    """A test (or the session) left a process running; the safety net killed it."""


def _environ(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return file.read().split(b"\0")
    except OSError:
        return []


def _descendants(pid: int) -> set[int]:
    """Children, grandchildren...: from /proc/PID/task/TID/children, a few reads
    rather than a scan of every process on the machine."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{parent}/task/{thread}/children") as file:
                    children = {int(child) for child in file.read().split()}
            except OSError:
                continue
            todo += children - found
            found |= children
    return found


def _read_int(path: str) -> int | None:
    try:
        with open(path) as file:
            return int(file.read())
    except (OSError, ValueError):
        return None


#: the last PID the kernel handed out in this PID namespace, and the highest it hands out
LAST_PID, PID_MAX = "/proc/sys/kernel/ns_last_pid", "/proc/sys/kernel/pid_max"
#: more new PIDs than this since the last look: list /proc instead of trying each one
MAX_NEW_PIDS = 500
#: the last PID handed out when we last looked; the tagged processes found so far
_looked = {"last_pid": -1}
_ours: set[int] = set()


def _new_pids() -> list[int] | None:
    """The PIDs handed out since the last look (the kernel hands them out in order,
    wrapping at pid_max), or None when that is not known or too many to try one by one.
    Trying a few PIDs costs microseconds; listing /proc, a few milliseconds per test."""
    since, now, top = _looked["last_pid"], _read_int(LAST_PID), _read_int(PID_MAX)
    if now is None or top is None or since < 0:
        return None
    _looked["last_pid"] = now
    if now >= since:
        pids = range(since + 1, now + 1)
        return list(pids) if len(pids) <= MAX_NEW_PIDS else None
    if top - since + now > MAX_NEW_PIDS:  # wrapped around
        return None
    return [*range(since + 1, top), *range(1, now + 1)]


def _is_process(pid: int) -> bool:
    """A thread's id opens /proc/TID too (with its process's environment): only a
    thread group's leader is a process."""
    try:
        with open(f"/proc/{pid}/status") as file:
            return any(line.split() == ["Tgid:", str(pid)] for line in file)
    except OSError:
        return False


def _tagged(*, fresh: bool) -> set[int]:
    """Processes carrying our tag, wherever they were re-parented. Each other process
    is read once while it lives: only the PIDs handed out since the last look are
    read, or every process in /proc when that is not known (``fresh``: all again)."""
    new = None if fresh else _new_pids()
    if new is None:
        _looked["last_pid"] = _read_int(LAST_PID) or -1  # before listing: none is missed
        pids = {int(entry.name) for entry in os.scandir("/proc") if entry.name.isdigit()}
        _foreign.intersection_update(pids)
        _ours.intersection_update(pids)
        new = list(pids - (set() if fresh else _foreign | _ours))
    else:
        _ours.intersection_update(p for p in _ours if os.path.exists(f"/proc/{p}"))
    for pid in new:  # a PID handed out again is read again
        _foreign.discard(pid)
        _ours.discard(pid)
        if PROCESS_TAG.encode() in _environ(pid) and _is_process(pid):
            _ours.add(pid)
        elif os.path.exists(f"/proc/{pid}"):
            _foreign.add(pid)
    return set(_ours)


def our_processes(*, shared: bool, fresh: bool = False) -> dict[int, psutil.Process]:
    """Live processes this pytest process started: its descendants, and those that
    carry its tag but were re-parented when their parent died. ``shared=False`` leaves
    out the peers that serve all tests (tests.peers.SHARED_PIDS: a Redis)."""
    me = os.getpid()
    if os.path.isdir(f"/proc/{me}/task"):
        pids = (_descendants(me) | _tagged(fresh=fresh)) - {me}
    else:  # not Linux: descendants only
        pids = {child.pid for child in psutil.Process().children(recursive=True)}
    if not shared:
        pids -= SHARED_PIDS
    found = {}
    for pid in pids:
        try:
            found[pid] = psutil.Process(pid)
        except psutil.Error:
            continue  # ended meanwhile
    return found


def _leftovers(processes: dict[int, psutil.Process]) -> dict[psutil.Process, str]:
    """Those still running (not zombies, not the long-lived helpers), with their
    command line and the test that was running when they started."""
    found = {}
    for process in processes.values():
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                continue
            command = " ".join(process.cmdline())
        except psutil.Error:
            continue
        if any(name in command for name in LONG_LIVED):
            continue
        started = next(
            (v for v in _environ(process.pid) if v.startswith(b"PYTEST_CURRENT_TEST=")), b""
        )
        found[process] = f"pid {process.pid}: {command[:300]}" + (
            f" (started during {started.decode(errors='replace').split('=', 1)[1]})"
            if started
            else ""
        )
    return found


def stop_leftovers(processes: dict[int, psutil.Process], where: str, grace: float = 3) -> None:
    """Give the processes a moment to end by themselves (a child that exits at its next
    read of a closed pipe), then kill those still running and say so."""
    leftovers = _leftovers(processes)
    if not leftovers:
        return
    _, alive = psutil.wait_procs(list(leftovers), timeout=grace)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(alive, timeout=5)
    if alive:
        warnings.warn(
            LeakedProcessWarning(
                f"{where} left {len(alive)} process(es) running; killed: "
                + "; ".join(leftovers[process] for process in alive)
            ),
            stacklevel=1,
        )


@pytest.fixture(scope="session", autouse=True)
def no_process_outlives_the_session() -> Iterator[None]:
    """The last line of defence (set up first, so torn down after every session
    fixture): whatever this pytest process started and is still running is killed."""
    yield
    stop_leftovers(our_processes(shared=True, fresh=True), "the test session")


@pytest.fixture(autouse=True)
def no_process_outlives_its_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """A failed test can leave a render child, a worker or a fake server running: kill
    it after the test, with a warning naming the test, so a leak is seen, not carried
    into the next tests. Costs a few reads of /proc, well under a millisecond."""
    before = our_processes(shared=False).keys()
    yield
    after = our_processes(shared=False)
    stop_leftovers({pid: p for pid, p in after.items() if pid not in before}, request.node.nodeid)


# -- logging is left as the test found it ------------------------------------------------

#: a logger and what it was: disabled, propagate, level, handlers
_LoggerState = tuple[logging.Logger, bool, bool, int, tuple[logging.Handler, ...]]


def _loggers() -> list[logging.Logger]:
    """The root logger and every named one (not the placeholders of parent names)."""
    named = logging.root.manager.loggerDict.values()
    return [logging.root, *(lg for lg in named if isinstance(lg, logging.Logger))]


@pytest.fixture(autouse=True)
def logging_is_left_as_found() -> Iterator[None]:
    """Logging is global: a test that reconfigures it changes what every later test in
    the process sees. ``logging.config.dictConfig`` (import-linter's ``lint_imports``
    calls it) disables every logger that exists, so a later test's records vanish; a CLI
    run adds its handlers to the root logger and sets levels. After each test, the
    loggers get back their level, handlers, ``propagate`` and ``disabled``, and none that
    the test created stays disabled. Well under a millisecond."""
    disable = logging.root.manager.disable
    before: list[_LoggerState] = [
        (lg, lg.disabled, lg.propagate, lg.level, tuple(lg.handlers)) for lg in _loggers()
    ]
    yield
    if logging.root.manager.disable != disable:
        logging.disable(disable)
    known = {id(state[0]) for state in before}
    for logger in _loggers():
        if logger.disabled and id(logger) not in known:
            logger.disabled = False
    for logger, disabled, propagate, level, handlers in before:
        logger.disabled, logger.propagate = disabled, propagate
        if logger.level != level:
            logger.setLevel(level)
        if tuple(logger.handlers) == handlers:
            continue
        for handler in [h for h in logger.handlers if h not in handlers]:
            logger.removeHandler(handler)
            if isinstance(handler, logging.FileHandler):
                handler.close()  # the log file in the test's own data folder
        for handler in handlers:
            if handler not in logger.handlers:
                logger.addHandler(handler)


def single_model_profile(folder: Path) -> Path:
    """The bundled profile without routing: one model reads everything. The bundled
    profile routes by default (docs/routing.md); tests that count requests or read
    the model of an answer use this one, and the routing tests name their models."""
    import json

    from docbatch_gui.config.profile import default_profile_path

    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data["models"] = {}
    path = folder / "single_model_profile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(
        data_dir=tmp_path / "data",
        JOB_TIMEOUT=60,
        RENDER_WORKERS=2,
        DOCBATCH_PROFILE=str(single_model_profile(tmp_path)),
    )


@pytest.fixture
def app(settings: Settings) -> Iterator[DocBatchApp]:
    from docbatch_gui.app.facade import DocBatchApp

    application = DocBatchApp(settings)
    yield application
    application.close()


@pytest.fixture(scope="session")
def _anthropic_server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def fake_anthropic(
    _anthropic_server: FakeAnthropic, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> FakeAnthropic:
    """The wire-level fake Anthropic API, reset for each test. Processes the test
    starts (the CLI) read with one model, as the tests counting requests expect; a
    test of routing names its profile (``tests/routing_helpers.py``)."""
    _anthropic_server.reset()
    monkeypatch.setenv("DOCBATCH_PROFILE", str(single_model_profile(tmp_path)))
    return _anthropic_server


@pytest.fixture
def claude_settings(tmp_path: Path, fake_anthropic: FakeAnthropic) -> Settings:
    """Sync mode against the fake: short timeouts and backoff-friendly retries."""
    return load_settings(
        data_dir=tmp_path / "data",
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.url,
        ANTHROPIC_TIMEOUT=10,
        ANTHROPIC_MAX_RETRIES=2,
        JOB_TIMEOUT=60,
        RENDER_WORKERS=2,
    )


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real ``redis-server`` for the session; tests use their own key names or flush."""
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied for this test."""
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url


@pytest.fixture(scope="session")
def moto_s3() -> Iterator[MotoS3]:
    """moto's S3 server over real HTTP, for the MinIO blob store."""
    with MotoS3() as server:
        yield server
