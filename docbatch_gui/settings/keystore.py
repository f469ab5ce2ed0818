"""Where secrets are kept: the system keyring, else an encrypted file, else nowhere.

A desktop has a system keyring (Secret Service, Windows Credential Manager, the macOS
Keychain) and secrets go there. A server, a container or CI often has none; there
they go to an encrypted file beside the settings file (``secrets.cfg``), kept by
``keyrings.cryptfile`` (AES-GCM under an Argon2 key), never to the settings file.
The file's key is ``DOCBATCH_KEYRING_PASSWORD`` when set (the key is then on no disk),
else a random key made once in ``secrets.key`` beside it, readable only by its owner:
a copy of ``secrets.cfg`` alone (a support bundle, a backup without the key) gives
nothing away, while the user's own account can read both, as with any file of
theirs. Scripts and servers may keep using the environment, which always wins.

Installing a file keyring package also offers it to every program's automatic
keyring choice, where it would ask for its password on a terminal. So the choice is
made here: the system keyring is the best backend that is not file-based, and the
file keyring is used only as this module configures it.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.settings.paths import settings_path

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

log = logging.getLogger(__name__)

PASSWORD_ENV = "DOCBATCH_KEYRING_PASSWORD"
FILE_NAME = "secrets.cfg"
KEY_NAME = "secrets.key"
#: Argon2 cost: every secret read pays it, at start-up too. The key is random (32
#: bytes) unless an operator's passphrase is given, so stretching buys little; these
#: keep a read to a few hundredths of a second on a small machine
TIME_COST = 2
MEMORY_KIB = 2**14
PARALLELISM = 1
#: packages whose backends keep secrets in files: never the automatic choice
FILE_BACKENDS = ("keyrings.cryptfile", "keyrings.alt")


def file_path() -> Path:
    return settings_path().parent / FILE_NAME


def key_path() -> Path:
    return settings_path().parent / KEY_NAME


def _file_backed(backend: object) -> bool:
    return type(backend).__module__.startswith(FILE_BACKENDS)


def system_keyring() -> KeyringBackend | None:
    """The keyring the operating system offers (or one a test installed); None when
    there is none (keyring's fail or null backend)."""
    try:
        # deferred: keyring, 0.12 s to import
        import keyring.core

        if keyring.core._keyring_backend is None and _may_choose_directly():
            return _direct()
        return _detected()
    except Exception as exc:  # a broken backend (D-Bus down): as if there were none
        log.info("no system keyring (%s)", type(exc).__name__)
        return None


def _detected() -> KeyringBackend | None:
    """keyring's own pick, without the file keyrings it would offer."""
    # deferred: keyring, 0.12 s to import
    import keyring
    from keyring.backends import chainer, fail

    current = keyring.get_keyring()
    if _file_backed(current) or isinstance(current, chainer.ChainerBackend):
        # keyring's own pick may chain a file keyring that prompts on a terminal
        keyring.core.init_backend(limit=lambda backend: not _file_backed(backend))
        current = keyring.get_keyring()
    if isinstance(current, fail.Keyring) or current.priority <= 0:
        return None
    return current


def _may_choose_directly() -> bool:
    """On Linux and Windows the system keyring is known by name; an operator who named
    one (``PYTHON_KEYRING_BACKEND``, keyring's configuration file) gets keyring's pick."""
    # deferred: keyring, 0.12 s to import
    from keyring.util import platform_

    if not sys.platform.startswith(("linux", "win32")) or os.environ.get("PYTHON_KEYRING_BACKEND"):
        return False
    return not (Path(platform_.config_root()) / "keyringrc.cfg").exists()


#: the system keyring chosen by name, once per process: ``_DIRECT_UNKNOWN`` until then
_DIRECT_UNKNOWN = object()
_direct_choice: object = _DIRECT_UNKNOWN


def _direct() -> KeyringBackend | None:
    """The system keyring of Linux (Secret Service, else KWallet) or Windows (the
    Credential Manager), without keyring's detection: that imports every backend and
    reads the entry points of every installed package, 15 % of the window's start,
    which reads the stored secrets with its settings. The same backends keyring
    would pick there, by the same availability checks (their ``priority``)."""
    global _direct_choice
    if _direct_choice is _DIRECT_UNKNOWN:
        _direct_choice = _first_available()
    return _direct_choice  # type: ignore[return-value]  # a backend or None by now


def _first_available() -> KeyringBackend | None:
    if sys.platform == "win32":
        names = ["keyring.backends.Windows:WinVaultKeyring"]
    else:
        names = ["keyring.backends.SecretService:Keyring", "keyring.backends.kwallet:DBusKeyring"]
    for name in names:
        module, _, attribute = name.partition(":")
        try:
            backend = getattr(importlib.import_module(module), attribute)
            if backend.priority > 0:  # raises when the service is not there
                return backend()
        except Exception as exc:  # not available here, as keyring judges it
            log.debug("keyring backend %s unavailable (%s)", name, type(exc).__name__)
    return None


#: opened file keyrings by (file, key): opening checks the key, which costs a decrypt
_opened: dict[tuple[Path, str], KeyringBackend] = {}


def file_keyring(*, create: bool) -> KeyringBackend | None:
    """The encrypted file keyring, opened with its key; None when the package is
    missing, or (``create`` False) when nothing was stored in it yet."""
    path = file_path()
    if not create and not path.exists():
        return None
    try:
        # deferred: keyrings.cryptfile, 0.13 s to import
        from keyrings.cryptfile.cryptfile import CryptFileKeyring
    except ImportError:
        return None
    key = _file_key(create=create)
    if key is None:
        log.warning(
            "%s exists but its key (%s or %s) is missing", str(path), PASSWORD_ENV, str(key_path())
        )
        return None
    if (path, key) in _opened and path.exists():
        return _opened[(path, key)]
    backend = CryptFileKeyring()
    backend.file_path = str(path)
    backend.time_cost, backend.memory_cost, backend.parallelism = (
        TIME_COST,
        MEMORY_KIB,
        PARALLELISM,
    )
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    backend.keyring_key = key  # checks the key against the file (ValueError if wrong)
    _opened[(path, key)] = backend
    return backend


def _file_key(*, create: bool) -> str | None:
    """The file keyring's key: from the environment, else from the key file, made
    (random, owner-only) when ``create``."""
    from_env = os.environ.get(PASSWORD_ENV, "").strip()
    if from_env:
        return from_env
    path = key_path()
    with contextlib.suppress(FileNotFoundError):
        return path.read_text(encoding="ascii").strip() or None
    if not create:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use that one
        return path.read_text(encoding="ascii").strip() or None
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key


def reading_backend() -> KeyringBackend | None:
    """Where a secret is looked up: the system keyring, else the file (if any)."""
    return system_keyring() or file_keyring(create=False)


def writing_backend() -> KeyringBackend | None:
    """Where a secret is stored; None: only the environment can hold secrets here."""
    return system_keyring() or file_keyring(create=True)


def secret_home() -> Message:
    """Where secrets typed in the window go, in the operator's words (a message: its
    English text, worded again in the reader's language)."""
    if system_keyring() is not None:
        return coded("secret_home_keyring")
    if _file_keyring_installed():
        return coded("secret_home_file", path=str(file_path()))
    return coded("secret_home_none")


def uses_file() -> bool:
    """No system keyring here: secrets go to the encrypted file."""
    return system_keyring() is None and _file_keyring_installed()


def _file_keyring_installed() -> bool:
    try:
        # deferred: keyrings.cryptfile, 0.13 s to import
        import keyrings.cryptfile.cryptfile  # noqa: F401
    except ImportError:
        return False
    return True
