"""The benchmarks' targets (``bench/targets.toml``) and the verdict on a figure."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

TARGETS_FILE = Path(__file__).with_name("targets.toml")


def load_targets() -> dict[str, dict[str, Any]]:
    with TARGETS_FILE.open("rb") as handle:
        return tomllib.load(handle)


def figures_of(bench: str) -> dict[str, dict[str, Any]]:
    """The figure → target entries of one bench (``{"min"|"max", "label"}``)."""
    return {k: v for k, v in load_targets()[bench].items() if isinstance(v, dict)}


def target_text(target: dict[str, Any]) -> str:
    return f">= {target['min']:g}" if "min" in target else f"<= {target['max']:g}"


def met(value: float | None, target: dict[str, Any]) -> bool:
    if value is None:
        return False
    if "min" in target:
        return value >= target["min"]
    return value <= target["max"]
