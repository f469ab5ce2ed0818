"""Secrets: from the environment, else the keyring; never from a settings file.

The GUI stores what an operator types into the keyring; scripts and servers use the
environment. A machine without a system keyring keeps them in an encrypted file
instead (``keystore`` says where, and why).

Which values are secret:

* the ``SecretStr`` settings (``ANTHROPIC_API_KEY``, ``MINIO_SECRET_KEY``,
  ``YADISK_TOKEN``, ``WEBHOOK_SECRET``, ``MAIL_PASSWORD``), stored in the keyring
  under their variable name;
* the password inside a connection URI (``MONGODB_URI``, ``REDIS_URL``,
  ``CELERY_BROKER_URL``). Only the password goes to the keyring, under
  ``<VARIABLE>_PASSWORD``; the settings file keeps the rest of the URI, so an operator
  can still read where the backend is. The password is put back when settings load.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from docbatch_gui.domain.text import printable
from docbatch_gui.settings.keystore import (
    file_keyring,
    reading_backend,
    system_keyring,
    writing_backend,
)

log = logging.getLogger(__name__)

SERVICE = "DocBatch"

#: settings whose whole value is secret
SECRET_VARIABLES = (
    "ANTHROPIC_API_KEY",
    "MINIO_SECRET_KEY",
    "YADISK_TOKEN",
    "WEBHOOK_SECRET",
    "MAIL_PASSWORD",
)
#: settings that are URIs and may carry a password
URI_VARIABLES = ("MONGODB_URI", "REDIS_URL", "CELERY_BROKER_URL")
MASK = "***"


def password_entry(variable: str) -> str:
    """The keyring entry that holds the password of a URI setting."""
    return f"{variable}_PASSWORD"


def keyring_secret(name: str) -> str | None:
    """A stored secret: the system keyring, else the encrypted file (``keystore``);
    None when neither has it (or neither exists: the environment is used alone)."""
    try:
        backend = reading_backend()
        if backend is None:
            return None
        return backend.get_password(SERVICE, name) or None
    except Exception as exc:  # locked collection, wrong file key: treat as absent
        log.info("stored secrets unavailable (%s); using the environment only", type(exc).__name__)
        return None


def set_keyring_secret(name: str, value: str) -> None:
    # deferred: keyring, 0.12 s to import
    from keyring.errors import NoKeyringError

    backend = writing_backend()
    if backend is None:
        raise NoKeyringError("no system keyring and no encrypted file keyring")
    backend.set_password(SERVICE, name, value)


def delete_keyring_secret(name: str) -> None:
    """Forget a stored secret wherever it is; nothing stored is not an error."""
    # deferred: keyring, 0.12 s to import
    from keyring.errors import PasswordDeleteError

    for backend in (system_keyring(), file_keyring(create=False)):
        if backend is not None:
            with contextlib.suppress(PasswordDeleteError):
                backend.delete_password(SERVICE, name)


def split_uri_password(uri: str) -> tuple[str, str | None]:
    """``scheme://user:pw@host/db`` -> (``scheme://user@host/db``, ``pw``)."""
    parts = urlsplit(uri)
    if parts.password is None:
        return uri, None
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    netloc = f"{user}@{host}" if user else host
    return urlunsplit(parts._replace(netloc=netloc)), unquote(parts.password)


def join_uri_password(uri: str, password: str | None) -> str:
    """Put a password (from the keyring) back into a URI that has none."""
    if not password:
        return uri
    parts = urlsplit(uri)
    if parts.password is not None or not parts.netloc:
        return uri
    user, _, host = parts.netloc.rpartition("@")
    netloc = f"{user}:{quote(password, safe='')}@{host}"
    return urlunsplit(parts._replace(netloc=netloc))


def redact(variable: str, value: object) -> str:
    """A value as it may be shown in a message or a log: secrets masked."""
    if value is None:
        return repr(None)
    name = variable.upper()
    if name in SECRET_VARIABLES or "KEY" in name or "SECRET" in name or "PASSWORD" in name:
        return MASK
    if name in URI_VARIABLES and isinstance(value, str):
        return repr(mask_uri_password(value))
    return repr(value)


def mask_uri_password(uri: str) -> str:
    """``scheme://user:pw@host`` -> ``scheme://user:***@host``, for display."""
    bare, password = split_uri_password(uri)
    if password is None:
        return uri
    parts = urlsplit(bare)
    user, _, host = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=f"{user}:{MASK}@{host}"))


def scrub(text: str, secrets: Iterable[str | None]) -> str:
    """Remove known secret values from a text that came from a library (an
    exception message may quote a URI or a header)."""
    for secret in secrets:
        if secret and len(secret) >= 3:
            text = text.replace(secret, MASK).replace(quote(secret, safe=""), MASK)
    return text


# -- one scrubber for every text that leaves a client -----------------------------------

#: shapes of credentials whatever their value: an Anthropic key, a bearer token, an API
#: key header, a private key block (a Google service account), a password in a URI
SECRET_PATTERNS = (
    re.compile(r"sk-ant-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/\-]{8,}=*"),
    re.compile(
        r"(?i)((?:x-api-key|api[_-]?key|authorization|token)[\"']?\s*[:=]\s*[\"']?)"
        r"[^\s\"',;}]{6,}"
    ),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
    re.compile(r"(://[^/\s:@]*:)[^@\s/]+(@)"),
)
_known: set[str] = set()


def secret_values(settings: Any) -> list[str | None]:
    """Every secret setting (any ``SecretStr``: a new one is covered without a change
    here) and the password of every URI setting."""
    # deferred: pydantic, 0.13 s to import
    from pydantic import SecretStr

    values: list[str | None] = [
        value.get_secret_value()
        for value in (getattr(settings, name) for name in type(settings).model_fields)
        if isinstance(value, SecretStr)
    ]
    for variable in URI_VARIABLES:
        uri = getattr(settings, variable.lower(), None)
        values.append(split_uri_password(uri)[1] if uri else None)
    return values


def remember_secrets(values: list[str | None]) -> None:
    """Secret values this process holds (from settings), scrubbed wherever they appear."""
    _known.update(v for v in values if v and len(v) >= 4)


def scrub_secrets(text: str) -> str:
    """A text from a client library (an exception, a response body) with every known
    secret value and every credential-shaped string masked: what may be stored in a
    job's error, logged or printed."""
    if not text:
        return text
    longest_first: list[str] = sorted(_known, key=len, reverse=True)
    text = scrub(text, longest_first)
    for pattern in SECRET_PATTERNS:
        text = pattern.sub(_masked, text)
    return text


def _masked(match: re.Match[str]) -> str:
    groups = [g for g in match.groups() if g is not None]
    if len(groups) == 2:  # a URI: keep "://user:" and "@"
        return f"{groups[0]}{MASK}{groups[1]}"
    if len(groups) == 1:  # a header or "bearer": keep its name
        return f"{groups[0]}{MASK}"
    return MASK


class ScrubbingFilter(logging.Filter):
    """Masks secrets in every record a handler writes (message and exception text),
    and escapes control characters a file name may carry into the message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = printable(scrub_secrets(message), lines=True)  # no escape sequence acts
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            # formatters print exc_text when it is set: the traceback, scrubbed
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = scrub_secrets(text)
        return True
