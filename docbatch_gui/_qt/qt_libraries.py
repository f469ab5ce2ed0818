"""Before Qt starts: are the system libraries its platform plugin needs installed?

PySide6 wheels bring Qt but not the system libraries its platform plugins load. When
one is missing, QApplication prints a paragraph about plugins and aborts the process:
nothing an operator can act on. Looked up here first (one ``ldconfig -p``), a missing
library becomes one message naming the Debian/Ubuntu packages to install, the same
lists ``scripts/run.sh`` installs (``scripts/bootstrap.sh``).
"""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping

#: set to 1 to start without looking (libraries installed where neither lookup sees them)
SKIP_VARIABLE = "DOCBATCH_NO_LIBRARY_CHECK"
#: what every platform needs (offscreen too): library name → Debian package
RUNTIME = {
    "GL": "libgl1",
    "EGL": "libegl1",
    "xkbcommon": "libxkbcommon0",
    "fontconfig": "libfontconfig1",
    "dbus-1": "libdbus-1-3",
    "glib-2.0": "libglib2.0-0",
}
#: what a window on an X display needs besides (the xcb platform plugin)
X11 = {
    "X11-xcb": "libx11-xcb1",
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-image": "libxcb-image0",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-randr": "libxcb-randr0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-shape": "libxcb-shape0",
    "xcb-sync": "libxcb-sync1",
    "xcb-xfixes": "libxcb-xfixes0",
    "xcb-xkb": "libxcb-xkb1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
}


def platform_of(environ: Mapping[str, str]) -> str | None:
    """The Qt platform the window will use: ``QT_QPA_PLATFORM``'s first choice, else
    xcb on an X display; None when it cannot be told (Wayland, or no display)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    if environ.get("WAYLAND_DISPLAY"):
        return None
    return "xcb" if environ.get("DISPLAY") else None


def known_libraries() -> set[str] | None:
    """The shared libraries the dynamic linker knows (``ldconfig -p``), by name
    without ``lib`` and ``.so…``; None when that cannot be asked."""
    for ldconfig in ("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"):
        try:
            listing = subprocess.run(
                [ldconfig, "-p"], capture_output=True, text=True, timeout=10, check=True
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        names = set()
        for line in listing.splitlines():
            soname = line.strip().split(" ", 1)[0]
            if soname.startswith("lib") and ".so" in soname:
                names.add(soname[3 : soname.index(".so")])
        return names
    return None


def missing_packages(
    platform: str | None, known: set[str] | None, find: Callable[[str], str | None] | None = None
) -> list[str]:
    """The packages to install for ``platform``'s libraries that are missing."""
    find = find or ctypes.util.find_library
    wanted = dict(RUNTIME)
    if platform == "xcb":
        wanted.update(X11)
    elif platform is None or platform not in ("offscreen", "minimal", "vnc", "eglfs"):
        return []  # Wayland or another platform: its own libraries, not looked up here
    return [pkg for name, pkg in wanted.items() if not _present(name, known, find)]


def _present(name: str, known: set[str] | None, find: Callable[[str], str | None]) -> bool:
    """Known to the linker's cache, or found by ctypes (which also reads
    LD_LIBRARY_PATH): a library is called missing only when both miss it."""
    return (known is not None and name in known) or find(name) is not None


def hint(packages: Iterable[str]) -> str:
    """What to tell the operator (in English: Qt and its translations are not up yet)."""
    listed = " ".join(packages)
    return (
        "DocBatch cannot open its window: system libraries Qt needs are missing.\n"
        f"Install them (Debian, Ubuntu), then start it again:\n"
        f"    sudo apt-get install {listed}\n"
        "(bash scripts/run.sh installs them too; the command line, docbatch, works "
        f"without them. If they are installed where this check does not look, set "
        f"{SKIP_VARIABLE}=1.)"
    )


def check_before_qt(environ: Mapping[str, str] | None = None) -> str | None:
    """The hint when Qt would abort for a missing library; None when it can start (or
    on a system other than Linux, where the wheels bring what they need)."""
    environ = os.environ if environ is None else environ
    if not sys.platform.startswith("linux") or getattr(sys, "frozen", False):
        return None  # other systems and the bundle carry what Qt needs
    if environ.get(SKIP_VARIABLE, "").strip() in {"1", "true", "yes"}:
        return None
    platform = platform_of(environ)
    if platform is None:
        return None
    missing = missing_packages(platform, known_libraries())
    return hint(missing) if missing else None
