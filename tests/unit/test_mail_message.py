"""A message taken apart without a server: names, bounds, zip bombs (fast)."""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage

from docbatch_gui.pipeline.archives import ZipLimits
from docbatch_gui.sources.mail_message import MailLimits, ledger_key, read_letter


def _message(*attachments: tuple[str, bytes]) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Бухгалтерия ООО «Ромашка» <acc@romashka.test>"
    msg["Subject"] = "Счёт"
    msg["Message-ID"] = "<A1@romashka.test>"
    msg.set_content("см. вложение")
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg


def test_folded_encoded_words_are_joined_and_the_message_id_is_the_key() -> None:
    letter = read_letter(_message().as_bytes(), MailLimits())
    assert letter.sender == "Бухгалтерия ООО «Ромашка» <acc@romashka.test>"  # not "Ромашк а"
    assert ledger_key(letter.message_id, b"") == "id:a1@romashka.test"
    assert ledger_key(None, b"x").startswith("sha256:")
    assert letter.body == "см. вложение"


def test_an_unknown_charset_is_read_with_replacement_not_refused() -> None:
    raw = b"From: =?x-unknown?Q?abc?= <a@b>\r\nSubject: =?koi8-r?B?8NLJ18XU?=\r\n\r\nhi"
    letter = read_letter(raw, MailLimits())
    assert letter.sender == "abc <a@b>" and letter.subject == "Привет"


def test_a_zip_bomb_is_refused_from_its_directory_and_other_files_are_taken() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.xml", b"\0" * (8 * 2**20))
    letter = read_letter(
        _message(("edo.zip", buffer.getvalue()), ("a.pdf", b"%PDF-1.4 x")).as_bytes(),
        MailLimits(zip=ZipLimits(max_ratio=100)),
    )
    assert [a.name for a in letter.attachments] == ["a.pdf"]
    (refused,) = letter.refused
    assert (refused.name, refused.code) == ("edo.zip", "zip_bomb")


def test_too_many_attachments_refuse_the_message_whole() -> None:
    pdfs = [(f"{i}.pdf", b"%PDF-1.4 " + bytes([i])) for i in range(4)]
    letter = read_letter(_message(*pdfs).as_bytes(), MailLimits(max_attachments=3))
    assert letter.attachments == []
    assert letter.refusal is not None and letter.refusal.params == {"count": 4, "most": 3}


def test_other_types_are_named_not_taken() -> None:
    letter = read_letter(
        _message(("contract.docx", b"PK"), ("a.sig", b"x")).as_bytes(), MailLimits()
    )
    assert letter.attachments == [] and letter.other == ["contract.docx", "a.sig"]
