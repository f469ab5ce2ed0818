"""Where bundled data (profiles, samples) lives.

One lookup for every module, so that an installed build, a source checkout and a
test that points ``DOCBATCH_RESOURCES`` at a temporary copy all agree.
"""

from __future__ import annotations

import os
from pathlib import Path

from docbatch_gui.frozen import bundle_dir

ENV_VAR = "DOCBATCH_RESOURCES"


def resources_dir() -> Path:
    """Return the resources directory: ``$DOCBATCH_RESOURCES``, the bundle's, or the
    repo's ``resources``.

    The variable is read on every call (not cached) so tests and the CLI can change
    it at run time.
    """
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser().resolve()
    bundled = bundle_dir()  # the PyInstaller bundle ships resources/ in its data folder
    if bundled is not None:
        return bundled / "resources"
    return Path(__file__).resolve().parents[1] / "resources"
