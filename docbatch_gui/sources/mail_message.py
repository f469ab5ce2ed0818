"""One e-mail message, taken apart with bounds: its attachments DocBatch reads, and
what it leaves out with why.

Mail comes from anyone, so every part is treated as hostile:

- a message over ``max_message_bytes`` is never fetched (the IMAP side checks
  ``RFC822.SIZE``) and is refused whole, as is one with more than
  ``max_attachments`` attachments;
- an attachment over ``max_attachment_bytes``, a zip that would inflate past its
  bounds (``archives``), or a part nested in forwarded messages deeper than
  ``max_depth`` is refused alone, the others are taken;
- names come encoded as RFC 2231 (``filename*=utf-8''…``) or RFC 2047
  (``=?windows-1251?B?…?=``); the standard library's ``email.policy.default``
  decodes both, and what it cannot decode is kept as escapes. Only the last path part
  of a name is kept, without control characters or a leading dot.

The result is plain data; ``app/mailing.py`` queues it.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from dataclasses import dataclass, field
from email.header import decode_header
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from typing import Any

from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.pipeline.archives import ZipLimits, open_zip
from docbatch_gui.system.names import safe_name

#: the extensions taken from mail (what intake reads, with XML and ЭДО archives)
MAIL_EXTENSIONS = frozenset({".pdf", ".tif", ".tiff", ".jpg", ".jpeg", ".png", ".xml", ".zip"})
#: a name for an attachment sent without one, from its content type
_BY_TYPE = {
    "application/pdf": ".pdf",
    "image/tiff": ".tiff",
    "image/jpeg": ".jpg",
    "image/png": ".png",
    "application/xml": ".xml",
    "text/xml": ".xml",
    "application/zip": ".zip",
    "application/x-zip-compressed": ".zip",
}


@dataclass(frozen=True)
class MailLimits:
    max_message_bytes: int = 50 * 2**20
    max_attachments: int = 20
    max_attachment_bytes: int = 25 * 2**20
    #: forwarded messages (message/rfc822) inside one another
    max_depth: int = 3
    zip: ZipLimits = field(default_factory=ZipLimits)


@dataclass(frozen=True)
class Attachment:
    name: str
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass(frozen=True)
class Refused:
    """A part not taken: its name and why, as a message code and its parameters."""

    name: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Letter:
    message_id: str | None
    sender: str
    subject: str
    #: ISO 8601, None when the Date header is missing or unreadable
    date: str | None
    attachments: list[Attachment] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    #: attachments of other types (a .docx, a signature), named for the log
    other: list[str] = field(default_factory=list)
    #: the text of the body (plain, else the HTML's text), for a body-only message
    body: str = ""
    #: the message refused whole (too many attachments): code and parameters
    refusal: Refused | None = None

    def origin(self, folder: str) -> dict[str, Any]:
        """What the job records of where its file came from."""
        return {
            "source": "mail",
            "folder": folder,
            "message_id": self.message_id,
            "sender": self.sender,
            "subject": self.subject,
            "date": self.date,
        }


def ledger_key(message_id: str | None, raw: bytes) -> str:
    """How a message is known across restarts: its Message-ID, else its bytes' hash."""
    if message_id:
        return "id:" + message_id.strip().strip("<>").lower()
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _header(message: EmailMessage, name: str) -> str:
    """A header decoded from its RFC 2047 words, from the raw text: the standard
    parser puts a space between two encoded words a sender's mailer folded apart
    ("Ромашк а"), which RFC 2047 section 6.2 says to join. A word in a charset
    nobody knows is read as UTF-8 with replacement characters."""
    raw = next((str(v) for k, v in message.raw_items() if k.lower() == name.lower()), "")
    try:
        pieces = decode_header(raw)
    except (ValueError, TypeError, IndexError):
        pieces = [(raw, None)]
    text = ""
    for piece, charset in pieces:
        if isinstance(piece, str):
            text += piece
            continue
        try:
            text += piece.decode(charset or "ascii")
        except (LookupError, UnicodeDecodeError):
            text += piece.decode("utf-8", "replace")
    return re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f]", " ", text)).strip()


def _date(message: EmailMessage) -> str | None:
    raw = _header(message, "Date")
    try:
        return parsedate_to_datetime(raw).isoformat() if raw else None
    except (ValueError, TypeError, IndexError):
        return None


def read_letter(raw: bytes, limits: MailLimits) -> Letter:
    """The message's attachments and what was left out; never raises for content."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    letter = Letter(
        message_id=_header(message, "Message-ID") or None,
        sender=_header(message, "From"),
        subject=_header(message, "Subject"),
        date=_date(message),
    )
    _walk(message, letter, limits, depth=0)
    if len(letter.attachments) + len(letter.refused) > limits.max_attachments:
        count = len(letter.attachments) + len(letter.refused)
        letter.refusal = Refused(
            safe_name(letter.subject or "message")[:80] + ".eml",
            "mail_too_many_attachments",
            {"count": count, "most": limits.max_attachments},
        )
        letter.attachments.clear()
    if not letter.attachments and not letter.refused:
        letter.body = _body_text(message)
    return letter


def _walk(part: EmailMessage, letter: Letter, limits: MailLimits, depth: int) -> None:
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        nested = inner[0] if isinstance(inner, list) and inner else None
        if depth + 1 > limits.max_depth:
            subject = _header(nested, "Subject") if isinstance(nested, EmailMessage) else ""
            shown = safe_name(subject or "message")[:80] + ".eml"
            letter.refused.append(Refused(shown, "mail_too_deep", {"most": limits.max_depth}))
            return
        if isinstance(nested, EmailMessage):
            _walk(nested, letter, limits, depth + 1)
        return
    if part.is_multipart():
        for sub in part.iter_parts():
            assert isinstance(sub, EmailMessage)
            _walk(sub, letter, limits, depth)
        return
    named = _name(part)
    if named is not None:
        _take(part, named, letter, limits)


def _name(part: EmailMessage) -> str | None:
    """The part's file name when it is an attachment; None for body text and for
    images embedded in an HTML body (a logo in a signature)."""
    filename: str | None
    try:
        filename = part.get_filename()
    except (ValueError, TypeError, LookupError):
        filename = None
    disposition = part.get_content_disposition()
    if filename is None:
        if disposition != "attachment":
            return None
        filename = "attachment" + _BY_TYPE.get(part.get_content_type(), "")
    if (
        disposition == "inline"
        and part.get("Content-ID")
        and part.get_content_maintype() == "image"
    ):
        return None
    name = safe_name(str(filename))
    if "." not in name and part.get_content_type() in _BY_TYPE:
        name += _BY_TYPE[part.get_content_type()]
    return name


def _take(part: EmailMessage, name: str, letter: Letter, limits: MailLimits) -> None:
    extension = ("." + name.rsplit(".", 1)[-1].lower()) if "." in name else ""
    if extension not in MAIL_EXTENSIONS:
        letter.other.append(name)
        return
    # base64 inflates by 4/3: a part is refused from its encoded size before decoding
    encoded = part.get_payload()
    if isinstance(encoded, str) and len(encoded) > limits.max_attachment_bytes * 4 // 3 + 4096:
        letter.refused.append(_too_big(name, len(encoded) * 3 // 4, limits))
        return
    try:
        data = part.get_payload(decode=True)
    except (ValueError, TypeError, LookupError):
        data = None
    if not isinstance(data, bytes) or not data:
        letter.refused.append(Refused(name, "mail_attachment_unreadable"))
        return
    if len(data) > limits.max_attachment_bytes:
        letter.refused.append(_too_big(name, len(data), limits))
        return
    if extension == ".zip":
        try:
            open_zip(data, name, limits.zip).close()
        except UnsupportedInput as exc:
            found = exc.message
            code, params = (found.code, dict(found.params)) if found.code else ("zip_damaged", {})
            letter.refused.append(Refused(name, code, params))
            return
    letter.attachments.append(Attachment(name, data))


def _too_big(name: str, size: int, limits: MailLimits) -> Refused:
    return Refused(
        name,
        "mail_attachment_too_big",
        {
            "size_mb": round(size / 2**20, 1),
            "most_mb": round(limits.max_attachment_bytes / 2**20, 1),
        },
    )


def _body_text(message: EmailMessage) -> str:
    """The body as text: the plain part, else the HTML part without its tags."""
    try:
        body = message.get_body(preferencelist=("plain", "html"))
        text = body.get_content() if body is not None else ""
    except (KeyError, LookupError, ValueError, TypeError):
        return ""
    if body is not None and body.get_content_subtype() == "html":
        text = re.sub(r"(?is)<(script|style).*?</\1>", " ", text)
        text = re.sub(r"(?s)<[^>]+>", " ", text)
        text = re.sub(r"[ \t]+", " ", text)
    return str(text).strip()
