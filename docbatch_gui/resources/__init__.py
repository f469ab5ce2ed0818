"""Where bundled data (profiles, prompts, prices, samples, translations) lives.

The data ships inside this package, so a wheel, an editable install and a checkout
all carry it; ``importlib.resources`` finds it wherever the package was installed.
One lookup for every module, so that an installed package, a PyInstaller bundle and
a test that points ``DOCBATCH_RESOURCES`` at a temporary copy all agree.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from docbatch_gui.frozen import bundle_dir

ENV_VAR = "DOCBATCH_RESOURCES"

#: a copy on disk when the package is imported from an archive (see ``_on_disk``)
_extracted: list[Path] = []


def resources_dir() -> Path:
    """Return the resources directory: ``$DOCBATCH_RESOURCES``, the bundle's, or this
    package's own folder.

    The variable is read on every call (not cached) so tests and the CLI can change
    it at run time.
    """
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser().resolve()
    bundled = bundle_dir()  # the PyInstaller bundle ships the data as docbatch_gui/resources
    if bundled is not None:
        return bundled / "docbatch_gui" / "resources"
    return _on_disk(resources.files(__name__))


def _on_disk(root: Traversable) -> Path:
    """A real folder for ``root``: callers hand these paths to Qt, MuPDF and ``open``.

    Every ordinary install is a folder already; only an import from a zip archive
    is not, and that is copied out once per process.
    """
    if isinstance(root, Path):
        return root
    if not _extracted:
        target = Path(tempfile.mkdtemp(prefix="docbatch-resources-"))
        atexit.register(shutil.rmtree, target, True)
        _copy_tree(root, target)
        _extracted.append(target)
    return _extracted[0]


def _copy_tree(source: Traversable, target: Path) -> None:
    for item in source.iterdir():
        if item.name == "__pycache__" or item.name.endswith((".py", ".pyc")):
            continue
        if item.is_dir():
            (target / item.name).mkdir()
            _copy_tree(item, target / item.name)
        else:
            (target / item.name).write_bytes(item.read_bytes())
