"""The settings refuse values that cannot work, with a sentence naming the variable:
a webhook or API address that is not http(s) with a host (validation), a folder
setting that names a file (the start's check, ``settings.checks``). (Before, "not a
url" was saved and every finished job then logged a failed delivery.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.settings.checks import check_settings
from docbatch_gui.settings.loading import load_settings


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("not a url", "must be an http:// or https:// address"),
        ("ftp://files.example.com/in", "must be an http:// or https:// address"),
        ("example.com/hook", "must be an http:// or https:// address"),
        ("http://", "names no host"),
        ("https://exa mple.com/hook", "cannot contain spaces"),
        ("http://example.com:port/", "must be an http:// or https:// address"),
    ],
)
def test_a_webhook_address_that_cannot_work_is_refused(value: str, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(WEBHOOK_URL=value)
    assert f"WEBHOOK_URL={value!r}" in caught.value.text
    assert says in caught.value.text
    assert "allowed is str" not in caught.value.text
    assert caught.value.words("ru") != caught.value.text  # worded in Russian too


@pytest.mark.parametrize(
    "value", ["https://hooks.example.com/docbatch", "http://127.0.0.1:8080/in", "  http://a.b  "]
)
def test_a_good_address_passes_trimmed(value: str) -> None:
    assert load_settings(WEBHOOK_URL=value).webhook_url == value.strip()


def test_the_api_addresses_are_checked_the_same_way() -> None:
    with pytest.raises(ConfigError, match="ANTHROPIC_BASE_URL='localhost:9'"):
        load_settings(ANTHROPIC_BASE_URL="localhost:9")
    with pytest.raises(ConfigError, match="YADISK_API_URL"):
        load_settings(YADISK_API_URL="cloud-api.yandex.net")


def test_a_folder_setting_that_names_a_file_is_refused_by_the_start_check(
    tmp_path: Path,
) -> None:
    """Validation asks no folder (it reads no disk); the start's check does."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    assert load_settings(data_dir=a_file).data_dir == a_file  # validation alone: no I/O
    with pytest.raises(ConfigError, match="is a file, not a folder"):
        check_settings(load_settings(data_dir=a_file), {"data_dir": a_file})
    given = {"data_dir": tmp_path / "data", "WATCH_FOLDERS": f"{tmp_path};{a_file}"}
    with pytest.raises(ConfigError, match="WATCH_FOLDERS"):
        check_settings(load_settings(**given), given)
    with pytest.raises(ConfigError, match="SHARED_FOLDER"):
        check_settings(load_settings(SHARED_FOLDER=str(a_file)), {"SHARED_FOLDER": a_file})
    # a folder that does not exist yet is made when needed
    fresh = load_settings(data_dir=tmp_path / "new" / "data")
    assert check_settings(fresh).data_dir == tmp_path / "new" / "data"
