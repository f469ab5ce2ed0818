"""The mailbox intake against a real IMAP server: Debian's dovecot on loopback, with
messages appended over IMAP (``tests/mail_server.py``).

Each test has its own server (about a second to start): dovecot starts a process per
connection, which the per-test process check would otherwise take for a leak."""

from __future__ import annotations

import base64
import io
import socket
import threading
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.mailing import MailService
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.sources.mail_imap import (
    TAKEN_KEYWORD,
    MailNotConfigured,
    MailRefusedLogin,
    MailUnavailable,
)
from tests.fakes.memory_keyring import memory_keyring
from tests.helpers import REPO, cli
from tests.mail_server import DOVECOT, PASSWORD, USER, Dovecot

pytestmark = pytest.mark.slow  # a dovecot per module, whole intakes per test

SAMPLES = REPO / "docbatch_gui" / "resources" / "samples"
PDF = (SAMPLES / "en_invoice_INV-2024-0042.pdf").read_bytes()
TIFF = (SAMPLES / "scan_two_pages.tiff").read_bytes()


@pytest.fixture
def server() -> Iterator[Dovecot]:
    if not Path(DOVECOT).exists():
        pytest.fail(
            "dovecot is not installed: run scripts/test.sh, or apt-get install dovecot-imapd"
        )
    with Dovecot() as running:
        yield running


@pytest.fixture
def folder(server: Dovecot, request: pytest.FixtureRequest) -> str:
    name = "T" + request.node.name.replace("test_", "")[:40].replace("[", "_").strip("]")
    with server.client() as client:
        client.create_folder(name)
    return name


def mail_settings(server: Dovecot, data: Path, folder: str, **more: object):  # type: ignore[no-untyped-def]
    values: dict[str, object] = {
        "MAIL_HOST": server.host,
        "MAIL_PORT": server.imaps_port,
        "MAIL_USER": USER,
        "MAIL_PASSWORD": PASSWORD,
        "MAIL_CA_FILE": str(server.cert),
        "MAIL_FOLDERS": folder,
        "MAIL_TIMEOUT": 10,
        "PROCESSING_MODE": "offline",
    }
    return load_settings(data_dir=data, **{**values, **more})


def check(server: Dovecot, data: Path, folder: str, **more: object):  # type: ignore[no-untyped-def]
    app = DocBatchApp(mail_settings(server, data, folder, **more))
    try:
        return MailService(app).check(), app.jobs()
    finally:
        app.close()


def message(
    subject: str = "Счёт на оплату",
    sender: str = "Бухгалтерия ООО «Ромашка» <acc@romashka.test>",
    attachments: list[tuple[str, bytes, str]] = (),  # type: ignore[assignment]
    body: str = "Добрый день, счёт во вложении.",
    message_id: str | None = "auto",
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = USER
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime(2026, 11, 30, 9, 15, tzinfo=UTC))
    if message_id:
        msg["Message-ID"] = (
            make_msgid(domain="romashka.test") if message_id == "auto" else message_id
        )
    msg.set_content(body)
    for name, data, kind in attachments:
        maintype, subtype = kind.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg


def test_attachments_are_queued_once_across_restarts_and_the_message_is_flagged(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    docx = ("договор.docx", b"PK\x03\x04docx", "application/octet-stream")
    msg = message(attachments=[("Счёт №5.pdf", PDF, "application/pdf"),
                               ("scan.tiff", TIFF, "image/tiff"), docx])  # fmt: skip
    server.append(msg.as_bytes(), folder)
    report, jobs = check(server, tmp_path / "data", folder)
    assert report.messages == 1
    assert sorted(j.file_name for j in report.queued) == ["scan.tiff", "Счёт №5.pdf"]
    assert [j.state for j in jobs] == [JobState.QUEUED] * 2
    origin = jobs[0].origin
    assert origin is not None
    assert origin["sender"] == "Бухгалтерия ООО «Ромашка» <acc@romashka.test>"
    assert origin["subject"] == "Счёт на оплату"
    assert origin["date"] == "2026-11-30T09:15:00+00:00"
    assert origin["message_id"] == msg["Message-ID"]
    assert jobs[0].source_path.startswith(f"mail:{folder}/")
    (flags,) = server.messages(folder).values()
    assert b"\\Seen" in flags and TAKEN_KEYWORD.encode() in flags

    # the flag is lost (a person unflags it) and DocBatch starts again: not taken twice
    with server.client() as client:
        client.select_folder(folder)
        client.remove_flags(client.search("ALL"), [TAKEN_KEYWORD])
    again, jobs_after = check(server, tmp_path / "data", folder)
    assert again.messages == 0 and again.queued == []
    assert len(jobs_after) == 2


def test_the_same_message_in_two_folders_is_taken_once_and_moved(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    msg = message(attachments=[("a.pdf", PDF, "application/pdf")])
    with server.client() as client:
        client.create_folder(folder + "-copy")
    server.append(msg.as_bytes(), folder)
    server.append(msg.as_bytes(), folder + "-copy")
    target = folder + "-done"
    report, jobs = check(server, tmp_path / "data", f"{folder};{folder}-copy",
                         MAIL_AFTER="move", MAIL_MOVE_TO=target)  # fmt: skip
    assert len(report.queued) == 1 and len(jobs) == 1
    assert server.messages(folder) == {}
    assert len(server.messages(target)) == 1
    assert len(server.messages(folder + "-copy")) == 1  # known already: left where it is


def test_keep_leaves_the_message_as_it_was_and_still_takes_it_once(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    server.append(message(attachments=[("a.pdf", PDF, "application/pdf")]).as_bytes(), folder)
    report, _ = check(server, tmp_path / "data", folder, MAIL_AFTER="keep")
    assert len(report.queued) == 1
    (flags,) = server.messages(folder).values()
    assert b"\\Seen" not in flags and TAKEN_KEYWORD.encode() not in flags
    again, jobs = check(server, tmp_path / "data", folder, MAIL_AFTER="keep")
    assert again.queued == [] and len(jobs) == 1


def test_a_message_without_attachments_is_its_body_as_a_pdf_only_when_set(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    body = "Счёт № 17 от 28.11.2026\nИтого к оплате: 12 500,00 руб."
    server.append(message(subject="Счёт 17", body=body, message_id=None).as_bytes(), folder)
    report, jobs = check(server, tmp_path / "off", folder)
    assert report.queued == [] and jobs == []
    assert "no attachment" in report.lines[0].english
    (flags,) = server.messages(folder).values()
    assert TAKEN_KEYWORD.encode() not in flags  # nothing was taken: left for a person

    report, jobs = check(server, tmp_path / "on", folder, MAIL_BODY_AS_PDF=True)
    (job,) = report.queued
    assert job.file_name == "Счёт 17.pdf"
    import pymupdf

    app = DocBatchApp(mail_settings(server, tmp_path / "on", folder))
    try:
        with app.blobs.open(job.sha256) as stored:
            text = pymupdf.open(stream=stored.read())[0].get_text()
    finally:
        app.close()
    assert "Итого к оплате: 12 500,00" in text


def test_names_in_rfc2231_and_rfc2047_and_an_embedded_logo(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    cp1251 = base64.b64encode("Поставщик".encode("cp1251")).decode()
    raw = (
        (
            f"From: =?windows-1251?B?{cp1251}?= <s@x.test>\r\n"
            "Subject: =?utf-8?B?0KHRh9GR0YI=?=\r\n"
            "Message-ID: <names@x.test>\r\n"
            "MIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
            "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
            "<p>см.</p><img src='cid:logo'>\r\n"
            "--b\r\nContent-Type: image/png\r\nContent-ID: <logo>\r\n"
            "Content-Disposition: inline; filename=logo.png\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
            "--b\r\nContent-Type: application/pdf\r\n"
            "Content-Disposition: attachment; filename*=utf-8''%D0%A1%D1%87%D1%91%D1%82%201.pdf\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\n"
        ).encode()
        + _b64(PDF)
        + (
            b"--b\r\nContent-Type: application/pdf;\r\n"
            b' name="=?windows-1251?B?wOryIDIucGRm?="\r\n'
            b"Content-Disposition: attachment;\r\n"
            b' filename="=?windows-1251?B?wOryIDIucGRm?="\r\n'
            b"Content-Transfer-Encoding: base64\r\n\r\n"
        )
        + _b64(PDF + b"\n% another copy\n")
        + (
            b"--b\r\nContent-Type: application/pdf\r\n"
            b'Content-Disposition: attachment; filename="../../etc/\x01passwd.pdf"\r\n'
            b"Content-Transfer-Encoding: base64\r\n\r\n"
        )
        + _b64(PDF + b"\n% third\n")
        + b"--b--\r\n"
    )
    server.append(raw, folder)
    report, jobs = check(server, tmp_path / "data", folder)
    names = sorted(j.file_name for j in report.queued)
    assert names == ["passwd.pdf", "Акт 2.pdf", "Счёт 1.pdf"]
    assert jobs[0].origin is not None
    assert jobs[0].origin["sender"] == "Поставщик <s@x.test>"
    assert jobs[0].origin["subject"] == "Счёт"


def _b64(data: bytes) -> bytes:
    return base64.encodebytes(data).replace(b"\n", b"\r\n") + b"\r\n"


def _zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("ON_NSCHFDOPPR_bomb.xml", b"\0" * (64 * 2**20))
    return buffer.getvalue()


def test_hostile_mail_is_refused_part_by_part_with_its_reason(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    huge = ("huge.pdf", PDF + b"\0" * 300_000, "application/pdf")
    big = message(subject="big", attachments=[huge, ("fine.pdf", PDF, "application/pdf")])
    bomb = message(subject="bomb", attachments=[("edo.zip", _zip_bomb(), "application/zip")])
    many = message(subject="many", attachments=[(f"p{i}.pdf", PDF + bytes([i]), "application/pdf")
                                                for i in range(6)])  # fmt: skip
    nested = message(subject="outer")
    inner = message(subject="inner", attachments=[("deep.pdf", PDF + b"deep", "application/pdf")])
    for _ in range(3):  # forwarded inside forwarded inside forwarded
        wrapper = message(subject="fwd")
        wrapper.add_attachment(inner)
        inner = wrapper
    nested.add_attachment(inner)
    for msg in (big, bomb, many, nested):
        server.append(msg.as_bytes(), folder)
    bounds = {"MAIL_MAX_ATTACHMENT_MB": 0.2, "MAIL_MAX_ATTACHMENTS": 5, "MAIL_MAX_DEPTH": 2}
    report, jobs = check(server, tmp_path / "data", folder, **bounds)
    assert report.messages == 4
    assert [j.file_name for j in report.queued] == ["fine.pdf"]
    errors = {j.file_name: j.error or "" for j in report.refused}
    assert "at most 0.2 MB" in errors["huge.pdf"] and "«big»" in errors["huge.pdf"]
    assert "zip bomb" in errors["edo.zip"]
    assert "6 attachments, at most 5" in errors["many.eml"]
    assert "deeper than 2 levels" in errors["fwd.eml"]
    failed = [j for j in jobs if j.state is JobState.FAILED]
    assert len(failed) == 4 and all(j.origin for j in failed)
    # refused messages are handled too: flagged, not read again
    assert all(TAKEN_KEYWORD.encode() in f for f in server.messages(folder).values())
    again, _ = check(server, tmp_path / "data", folder)
    assert again.messages == 0


def test_a_message_over_its_size_is_refused_without_being_fetched(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    server.append(message(attachments=[("a.pdf", PDF * 20, "application/pdf")]).as_bytes(), folder)
    report, jobs = check(server, tmp_path / "data", folder, MAIL_MAX_MESSAGE_MB=0.1)
    (job,) = jobs
    assert job.state is JobState.FAILED and "at most 0.1 MB is fetched" in (job.error or "")
    assert report.queued == []


def test_login_certificate_and_plain_imap_are_each_said(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    with pytest.raises(MailRefusedLogin, match="refused the login of clerk"):
        check(server, tmp_path / "a", folder, MAIL_PASSWORD="wrong")
    with pytest.raises(MailRefusedLogin, match=r"certificate was not accepted.*MAIL_CA_FILE"):
        check(server, tmp_path / "b", folder, MAIL_CA_FILE="")
    # TLS is the default: the plain port does not speak it
    with pytest.raises(MailUnavailable, match="cannot be reached"):
        check(server, tmp_path / "c", folder, MAIL_PORT=server.imap_port)
    server.append(message(attachments=[("a.pdf", PDF, "application/pdf")]).as_bytes(), folder)
    report, _ = check(server, tmp_path / "d", folder, MAIL_PORT=server.imap_port,
                      MAIL_SECURITY="starttls")  # fmt: skip
    assert len(report.queued) == 1
    report, _ = check(server, tmp_path / "e", folder, MAIL_PORT=server.imap_port,
                      MAIL_SECURITY="plain", MAIL_AFTER="keep")  # fmt: skip
    assert len(report.queued) == 1  # plain IMAP, explicitly set: a new store takes it
    with pytest.raises(MailNotConfigured, match="MAIL_HOST"):
        DocBatchApp(load_settings(data_dir=tmp_path / "f"))  # nothing set
        MailService(DocBatchApp(load_settings(data_dir=tmp_path / "f"))).check()


def test_the_password_comes_from_the_keyring(server: Dovecot, folder: str, tmp_path: Path) -> None:
    server.append(message(attachments=[("a.pdf", PDF, "application/pdf")]).as_bytes(), folder)
    with memory_keyring() as ring:
        ring.set_password("DocBatch", "MAIL_PASSWORD", PASSWORD)
        settings = load_settings(
            data_dir=tmp_path / "data", MAIL_HOST=server.host, MAIL_PORT=server.imaps_port,
            MAIL_USER=USER, MAIL_CA_FILE=str(server.cert), MAIL_FOLDERS=folder,
        )  # fmt: skip
        app = DocBatchApp(settings)
        try:
            assert len(MailService(app).check().queued) == 1
        finally:
            app.close()


def test_a_server_that_stalls_is_left_after_mail_timeout(tmp_path: Path) -> None:
    """It accepts the connection and never says a word: the check ends, said."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    thread = threading.Thread(target=lambda: accepted.append(listener.accept()[0]), daemon=True)
    thread.start()
    settings = load_settings(
        data_dir=tmp_path / "data", MAIL_HOST="127.0.0.1", MAIL_PORT=listener.getsockname()[1],
        MAIL_USER=USER, MAIL_PASSWORD=PASSWORD, MAIL_TIMEOUT=0.5,
    )  # fmt: skip
    app = DocBatchApp(settings)
    try:
        with pytest.raises(MailUnavailable, match=r"did not answer within 0.5 s \(MAIL_TIMEOUT\)"):
            MailService(app).check()
    finally:
        app.close()
        for sock in accepted:
            sock.close()
        listener.close()


def test_docbatch_mail_queues_and_says_so(server: Dovecot, folder: str, tmp_path: Path) -> None:
    server.append(message(attachments=[("a.pdf", PDF, "application/pdf")]).as_bytes(), folder)
    env = {
        "MAIL_HOST": server.host, "MAIL_PORT": str(server.imaps_port), "MAIL_USER": USER,
        "MAIL_PASSWORD": PASSWORD, "MAIL_CA_FILE": str(server.cert), "MAIL_FOLDERS": folder,
        "PROCESSING_MODE": "offline",
    }  # fmt: skip
    import json

    done = cli(tmp_path / "data", "mail", "--json", env=env)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["messages"] == 1 and body["queued"][0]["origin"]["source"] == "mail"
    refused = cli(tmp_path / "data", "mail", env={**env, "MAIL_PASSWORD": "wrong"})
    assert refused.returncode == 5
    assert "refused the login" in refused.stderr and "wrong" not in refused.stderr


def test_test_connection_logs_in_and_names_a_missing_folder(
    server: Dovecot, folder: str, tmp_path: Path
) -> None:
    """What Settings → Mail's Test connection says."""
    import asyncio

    from docbatch_gui.diagnostics.connections import test_mail

    ok = asyncio.run(test_mail(mail_settings(server, tmp_path / "a", folder)))
    assert ok.ok and f"logged in; folders {folder}" in ok.message.english
    missing = asyncio.run(test_mail(mail_settings(server, tmp_path / "b", "Nowhere")))
    assert not missing.ok and "the folder Nowhere is not in the mailbox" in missing.message.english
    wrong = asyncio.run(test_mail(mail_settings(server, tmp_path / "c", folder,
                                                MAIL_PASSWORD="wrong")))  # fmt: skip
    said = wrong.message.english
    assert not wrong.ok and "refused the login" in said and "wrong" not in said
    unset = asyncio.run(test_mail(load_settings(data_dir=tmp_path / "d")))
    assert unset.skipped
