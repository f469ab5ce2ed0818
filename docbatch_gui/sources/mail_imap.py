"""The IMAP side of the mailbox intake: connect over TLS, list what is new, fetch a
message within its size bound, then flag or move it.

``MAIL_SECURITY`` is ``tls`` (IMAPS, port 993, the default), ``starttls`` (port 143,
upgraded before login) or ``plain``, which sends the password in the clear and so is
never a default. The server's certificate is checked against the system's
authorities, or ``MAIL_CA_FILE`` for an office's own. Every read has a timeout
(``MAIL_TIMEOUT``), so a server that accepts and then says nothing cannot hold the
worker. Each failure is one ``MailUnavailable`` (retried at the next pass) or
``MailRefusedLogin`` (the operator must act) with a sentence naming the setting.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from docbatch_gui.domain.errors import ConfigError, RetryableError
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import keyring_secret

#: the keyword a flagged message carries (with \\Seen), so a person sees it was taken
TAKEN_KEYWORD = "$DocBatch"


class MailUnavailable(RetryableError):
    """The mail server could not be reached, stalled, or broke the connection."""


class MailRefusedLogin(ConfigError):
    """The server refused the login or its certificate did not verify."""


class MailNotConfigured(ConfigError):
    """MAIL_HOST, MAIL_USER or the password is missing."""


@dataclass(frozen=True)
class MailServer:
    host: str
    port: int
    user: str
    password: str
    security: str = "tls"
    ca_file: str | None = None
    timeout: float = 30.0

    def __repr__(self) -> str:  # never the password, in a log or a traceback
        return f"MailServer({self.user}@{self.host}:{self.port}, {self.security})"


@dataclass(frozen=True)
class Listed:
    """A message in a folder, before its body is fetched."""

    uid: int
    size: int
    message_id: str | None


def mail_server(settings: Settings, password: str | None = None) -> MailServer:
    """The mailbox of the settings; the password from MAIL_PASSWORD or the keyring."""
    if not settings.mail_configured:
        raise MailNotConfigured.coded("mail_not_configured")
    if password is None and settings.mail_password is not None:
        password = settings.mail_password.get_secret_value()
    password = password or keyring_secret("MAIL_PASSWORD")
    if not password:
        raise MailNotConfigured.coded("mail_not_configured")
    security = settings.mail_security
    port = settings.mail_port or (993 if security == "tls" else 143)
    return MailServer(
        host=str(settings.mail_host),
        port=port,
        user=str(settings.mail_user),
        password=password,
        security=security,
        ca_file=str(settings.mail_ca_file) if settings.mail_ca_file else None,
        timeout=settings.mail_timeout,
    )


def _context(server: MailServer) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=server.ca_file or None)


class Mailbox:
    """One logged-in IMAP session; use as a context manager."""

    def __init__(self, server: MailServer) -> None:
        # deferred: imapclient, 0.12 s to import
        from imapclient import IMAPClient  # the intake alone needs it
        from imapclient.imapclient import SocketTimeout

        self.server = server
        where = {"host": server.host, "port": server.port}
        try:
            self.client = IMAPClient(
                server.host,
                port=server.port,
                ssl=server.security == "tls",
                ssl_context=_context(server) if server.security == "tls" else None,
                timeout=SocketTimeout(connect=server.timeout, read=server.timeout),
            )
            if server.security == "starttls":
                self.client.starttls(_context(server))
        except ssl.SSLCertVerificationError as exc:
            raise MailRefusedLogin.coded(
                "mail_certificate", {**where, "error": exc.verify_message or str(exc)}
            ) from None
        except TimeoutError:
            raise MailUnavailable.coded(
                "mail_stalled", {**where, "seconds": f"{server.timeout:g}"}
            ) from None
        except (OSError, ssl.SSLError) as exc:
            raise MailUnavailable.coded("mail_unreachable", {**where, "error": str(exc)}) from None
        except Exception as exc:  # imaplib's abort/error on a broken greeting or STARTTLS
            raise MailUnavailable.coded("mail_unreachable", {**where, "error": str(exc)}) from None
        try:
            self.client.login(server.user, server.password)
        except Exception as exc:
            self._close()
            if isinstance(exc, (TimeoutError, socket.timeout)):
                raise MailUnavailable.coded(
                    "mail_stalled", {**where, "seconds": f"{server.timeout:g}"}
                ) from None
            raise MailRefusedLogin.coded(
                "mail_login_refused", {**where, "user": server.user, "error": _said(exc)}
            ) from None

    def __enter__(self) -> Mailbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()

    def _close(self) -> None:
        try:
            self.client.logout()
        except Exception:  # already broken: the socket goes with the object
            with contextlib.suppress(Exception):
                self.client.shutdown()

    def _call(self, what: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        """One IMAP command; a stall or a broken connection is MailUnavailable."""
        where = {"host": self.server.host, "port": self.server.port}
        try:
            return call(*args, **kwargs)
        except TimeoutError:
            raise MailUnavailable.coded(
                "mail_stalled", {**where, "seconds": f"{self.server.timeout:g}"}
            ) from None
        except Exception as exc:
            raise MailUnavailable.coded(
                "mail_command_failed", {**where, "command": what, "error": _said(exc)}
            ) from None

    def folders(self) -> list[str]:
        return [name for _flags, _sep, name in self._call("LIST", self.client.list_folders)]

    def listed(self, folder: str, *, skip_taken: bool) -> Iterator[Listed]:
        """The folder's messages, oldest first, without those already flagged taken
        (``skip_taken``): their UID, size and Message-ID, nothing of their bodies."""
        self._call("SELECT", self.client.select_folder, folder)
        criteria = ["NOT", "DELETED"] + (["NOT", "KEYWORD", TAKEN_KEYWORD] if skip_taken else [])
        uids = sorted(self._call("SEARCH", self.client.search, criteria))
        for start in range(0, len(uids), 200):
            chunk = uids[start : start + 200]
            fetched = self._call(
                "FETCH",
                self.client.fetch,
                chunk,
                ["RFC822.SIZE", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"],
            )
            for uid in chunk:
                data = fetched.get(uid, {})
                header = data.get(b"BODY[HEADER.FIELDS (MESSAGE-ID)]", b"") or b""
                yield Listed(uid, int(data.get(b"RFC822.SIZE", 0)), _message_id(header))

    def fetch(self, uid: int) -> bytes:
        """The whole message, without marking it read (``BODY.PEEK``)."""
        fetched = self._call("FETCH", self.client.fetch, [uid], ["BODY.PEEK[]"])
        return bytes(fetched.get(uid, {}).get(b"BODY[]", b""))

    def after(self, uid: int, action: str, move_to: str) -> None:
        """Flag the message taken (and read), or move it to ``move_to``, or leave it."""
        if action == "flag":
            self._call("STORE", self.client.add_flags, [uid], [b"\\Seen", TAKEN_KEYWORD])
        elif action == "move":
            self._call("CREATE", self._ensure_folder, move_to)
            self._call("MOVE", self.client.move, [uid], move_to)

    def _ensure_folder(self, name: str) -> None:
        if not self.client.folder_exists(name):
            self.client.create_folder(name)


def _message_id(header: bytes) -> str | None:
    text = header.decode("ascii", "replace")
    for line in text.replace("\r\n ", " ").replace("\n ", " ").splitlines():
        if line.lower().startswith("message-id:"):
            return line.split(":", 1)[1].strip() or None
    return None


def _said(exc: Exception) -> str:
    """What the server said, decoded and short (IMAP errors carry bytes)."""
    text = exc.args[0] if exc.args else str(exc)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return str(text)[:200]
