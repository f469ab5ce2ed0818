"""A routed profile for tests: the bundled one with a first and an escalation model."""

from __future__ import annotations

import json
from pathlib import Path

from docbatch_gui.config.profile import Profile, default_profile_path, load_profile

FIRST = "claude-haiku-5-5"
ESCALATION = "claude-sonnet-5-5"


def routed_profile(
    folder: Path, first: str | None = FIRST, escalation: str | None = ESCALATION
) -> Profile:
    """The bundled profile naming ``first`` and ``escalation`` (None: left out)."""
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data["models"] = {
        k: v for k, v in (("first", first), ("escalation", escalation)) if v is not None
    }
    path = folder / "routed_profile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_profile(path)
