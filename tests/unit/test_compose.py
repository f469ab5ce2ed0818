"""The team's compose file is closed by default: ports on localhost, passwords required."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"
REQUIRED = re.compile(r"\$\{(\w+):\?[^}]*\}")  # ${VAR:?message}: compose refuses to start


def _compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def test_every_published_port_is_bound_to_localhost_unless_told_otherwise() -> None:
    for name, service in _compose()["services"].items():
        for port in service.get("ports", []):
            host = str(port).rsplit(":", 2)[0]
            assert host in ("127.0.0.1", "${DOCBATCH_BIND:-127.0.0.1}"), (name, port)


def test_each_server_requires_a_password_with_no_default() -> None:
    services = _compose()["services"]
    mongo = services["mongodb"]["environment"]
    assert REQUIRED.fullmatch(mongo["MONGO_INITDB_ROOT_PASSWORD"])
    minio = services["minio"]["environment"]
    assert REQUIRED.fullmatch(minio["MINIO_ROOT_USER"])
    assert REQUIRED.fullmatch(minio["MINIO_ROOT_PASSWORD"])
    redis = services["redis"]["command"]
    assert REQUIRED.fullmatch(redis[redis.index("--requirepass") + 1])
    text = COMPOSE.read_text(encoding="utf-8")
    assert "change-me" not in text  # no default secrets
    assert not re.search(r"(PASSWORD|SECRET_KEY|ACCESS_KEY):-", text)
    team = services["worker"]["environment"]
    assert "${MONGO_PASSWORD:?" in team["MONGODB_URI"]
    assert "${REDIS_PASSWORD:?" in team["REDIS_URL"]
    assert team["SHARED_FOLDER"] == "/shared"
