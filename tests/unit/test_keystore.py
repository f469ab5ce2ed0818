"""Where no system keyring exists (CI, servers), secrets go to an encrypted file beside
the settings file, never in clear, and the message says so; a system keyring, when
there is one, is used instead, and a file keyring never prompts on a terminal."""

from __future__ import annotations

import getpass
import stat
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from docbatch_gui.settings import keystore
from docbatch_gui.settings.file import store_secrets
from docbatch_gui.settings.secrets import delete_keyring_secret, keyring_secret
from tests.fakes.memory_keyring import MemoryKeyring, memory_keyring

SECRET = "sk-ant-api03-very-secret-value"


@pytest.fixture
def no_system_keyring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A computer without a keyring, as CI: keyring's own pick left to itself."""
    settings = tmp_path / "config" / "settings.json"
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(settings))
    monkeypatch.delenv(keystore.PASSWORD_ENV, raising=False)

    def no_prompt(*_args: object) -> str:
        raise AssertionError("a keyring asked for a password on the terminal")

    monkeypatch.setattr(getpass, "getpass", no_prompt)
    every = keyring.backend.get_all_keyring
    monkeypatch.setattr(  # the tests' in-memory keyring is no system keyring
        keyring.backend,
        "get_all_keyring",
        lambda: [b for b in every() if not isinstance(b, MemoryKeyring)],
    )
    previous = keyring.get_keyring()
    keyring.core.init_backend()  # what keyring itself picks here (may chain file keyrings)
    keystore._opened.clear()
    try:
        if keystore.system_keyring() is not None:
            pytest.skip("this machine has a system keyring")
        yield settings.parent
    finally:
        keystore._opened.clear()
        keyring.set_keyring(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_without_a_system_keyring_secrets_go_to_an_encrypted_file(
    no_system_keyring: Path,
) -> None:
    folder = no_system_keyring
    assert keystore.uses_file()
    assert "encrypted file" in keystore.secret_home().english
    assert str(folder / "secrets.cfg") in keystore.secret_home().english
    assert isinstance(keyring.get_keyring(), fail.Keyring)  # never a prompting file pick

    store_secrets({"ANTHROPIC_API_KEY": SECRET})
    stored = folder / "secrets.cfg"
    assert SECRET not in stored.read_text()
    assert mode(stored) == 0o600 and mode(folder / "secrets.key") == 0o600
    keystore._opened.clear()  # as a new process would
    assert keyring_secret("ANTHROPIC_API_KEY") == SECRET
    delete_keyring_secret("ANTHROPIC_API_KEY")
    assert keyring_secret("ANTHROPIC_API_KEY") is None


def test_a_passphrase_from_the_environment_keeps_the_key_off_the_disk(
    no_system_keyring: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(keystore.PASSWORD_ENV, "correct horse battery staple")
    store_secrets({"YADISK_TOKEN": SECRET})
    assert not (no_system_keyring / "secrets.key").exists()
    keystore._opened.clear()
    assert keyring_secret("YADISK_TOKEN") == SECRET
    monkeypatch.setenv(keystore.PASSWORD_ENV, "a wrong passphrase")
    keystore._opened.clear()
    assert keyring_secret("YADISK_TOKEN") is None  # unreadable: absent, not a crash


def test_a_system_keyring_is_used_when_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCBATCH_SETTINGS_FILE", str(tmp_path / "settings.json"))
    with memory_keyring() as backend:
        assert keystore.secret_home().english == "the system keyring"
        store_secrets({"ANTHROPIC_API_KEY": SECRET})
        assert backend.store[("DocBatch", "ANTHROPIC_API_KEY")] == SECRET
    assert not (tmp_path / "secrets.cfg").exists()
