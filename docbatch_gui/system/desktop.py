"""Showing a file in the desktop's file manager.

Opening a file in its program is the desktop's URL handler (Qt's ``QDesktopServices``
in the window, which uses ``ShellExecute`` on Windows, ``open`` on macOS and the
portal or ``xdg-open`` on Linux). Showing a file *selected in its folder* has no such
handler: Explorer and Finder take a command; Linux file managers differ, so there
the folder itself is opened and the caller does it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

__all__ = ["reveal", "reveal_command"]


def reveal_command(path: Path, platform: str = sys.platform) -> list[str] | None:
    """The command that shows ``path`` selected in its folder on ``platform``; None
    where the desktop has none (open the folder instead)."""
    if platform == "win32":
        return ["explorer", "/select,", str(path)]
    if platform == "darwin":
        return ["open", "-R", str(path)]
    return None


def reveal(path: Path) -> bool:
    """Show ``path`` selected in the file manager; False when this desktop has no such
    command or it cannot be started (the caller opens the folder)."""
    command = reveal_command(path)
    if command is None:
        return False
    try:
        subprocess.Popen(command)
    except OSError:
        return False
    return True
