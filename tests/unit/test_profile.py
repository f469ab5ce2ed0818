"""The document-type profile loads, and bad content stops with a clear ConfigError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.config.profile import default_profile_path, label_regex, load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.resources import resources_dir

REPO = Path(__file__).resolve().parents[2]
RESOURCES = REPO / "docbatch_gui" / "resources"
DEFAULT = RESOURCES / "profiles" / "default.json"


def _default_json() -> dict[str, Any]:
    return json.loads(DEFAULT.read_text("utf-8"))


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_default_profile_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCBATCH_RESOURCES", raising=False)
    profile = load_profile()
    assert profile.source == DEFAULT
    assert [t.key for t in profile.doc_types] == [
        "invoice",
        "act",
        "contract",
        "waybill",
        "unknown",
    ]
    assert profile.field_keys == (
        "number",
        "date",
        "amount",
        "currency",
        "vat_amount",
        "seller",
        "buyer",
        "seller_tax_id",
        "buyer_tax_id",
    )
    assert profile.review_threshold == 0.6
    invoice = profile.doc_type("invoice")
    assert invoice is not None
    assert invoice.required_fields == ("number", "date", "amount")
    assert invoice.labels["ru"] == "Счёт"
    assert {c.code for c in profile.currencies} >= {"RUB", "USD", "EUR"}


def test_resources_dir_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCBATCH_RESOURCES", raising=False)
    assert resources_dir() == RESOURCES
    copy = tmp_path / "res"
    shutil.copytree(RESOURCES / "profiles", copy / "profiles")
    monkeypatch.setenv("DOCBATCH_RESOURCES", str(copy))
    assert resources_dir() == copy.resolve()
    assert default_profile_path() == copy.resolve() / "profiles" / "default.json"
    assert load_profile().source == copy.resolve() / "profiles" / "default.json"


def test_profile_is_frozen() -> None:
    profile = load_profile()
    with pytest.raises(AttributeError):
        profile.review_threshold = 0.1  # type: ignore[misc]
    with pytest.raises(TypeError):
        profile.doc_types[0].labels["ru"] = "x"  # type: ignore[index]


def test_bad_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"version": 1,', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    assert str(path) in str(info.value)
    assert "not valid JSON" in str(info.value)
    assert info.value.file == str(path)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(ConfigError, match=r"nope\.json"):
        load_profile(path)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(review_threshold=1.5), "review_threshold"),
        (lambda d: d["doc_types"].pop(), "unknown"),
        (lambda d: d["doc_types"][0]["required_fields"].append("iban"), "iban"),
        (lambda d: d["doc_types"][0]["title"].append({"regex": "(", "weight": 1}), "bad regex"),
        (lambda d: d["doc_types"][0]["title"].append({"weight": 1}), "exactly one"),
        (lambda d: d["fields"][0].update(kind="colour"), "kind"),
        (lambda d: d["fields"].append(dict(d["fields"][0])), "duplicate"),
        (lambda d: d.update(surprise=True), "surprise"),
        (lambda d: d["currencies"].append({"code": "rub", "markers": ["x"]}), "code"),
    ],
)
def test_invalid_content_raises_config_error(tmp_path: Path, mutate: Any, message: str) -> None:
    data = _default_json()
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    text = str(info.value)
    assert str(path) in text
    assert message in text


def test_not_an_object(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="Invalid profile"):
        load_profile(_write(tmp_path, ["invoice"]))


@pytest.mark.parametrize(
    ("phrase", "text", "hit"),
    [
        ("в т ч ндс", "в т.ч. ндс 20%", True),
        ("р с", "р/с 40702810", True),
        ("ндс", "без ндс", True),
        ("ндс", "ндсх", False),
        ("итого", "итоговая", False),
        ("№", "счет №12", True),
        ("$", "total $5", True),
    ],
)
def test_label_regex(phrase: str, text: str, hit: bool) -> None:
    assert bool(label_regex(phrase).search(text)) is hit
