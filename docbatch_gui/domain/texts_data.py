"""The words of the mailbox intake, of archives, and of documents that arrive as data
(УПД XML, Factur-X): what is refused and why, and what the intake did.

code → English template, marked for the catalogue (``domain.messages``).
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, NN_, Plural

DATA_TEXTS: dict[str, str | Plural] = {
    # archives (mail attachments, ЭДО packages)
    "zip_damaged": N_("{file}: the zip archive cannot be read ({error})"),
    "zip_too_many": NN_(
        "{file}: the archive holds {count} file, at most {most} are taken",
        "{file}: the archive holds {count} files, at most {most} are taken",
        "count",
    ),
    "zip_bomb": N_(
        "{file}: the archive would unpack to {size_mb} MB ({ratio} times its size); refused as a "
        "zip bomb",
    ),
    "zip_encrypted": N_("{file}: {member} in the archive is encrypted; send it without a password"),
    "zip_nested": N_(
        "{file}: the archive holds another archive ({member}); send its files directly",
    ),
    # mail: one message or one of its parts refused
    "mail_too_many_attachments": NN_(
        "the message has {count} attachment, at most {most} are taken (MAIL_MAX_ATTACHMENTS)",
        "the message has {count} attachments, at most {most} are taken (MAIL_MAX_ATTACHMENTS)",
        "count",
    ),
    "mail_too_deep": NN_(
        "a forwarded message nested deeper than {most} level (MAIL_MAX_DEPTH)",
        "a forwarded message nested deeper than {most} levels (MAIL_MAX_DEPTH)",
        "most",
    ),
    "mail_attachment_unreadable": N_("the attachment is empty or its encoding is damaged"),
    "mail_attachment_too_big": N_(
        "the attachment is {size_mb} MB, at most {most_mb} MB is taken (MAIL_MAX_ATTACHMENT_MB)",
    ),
    "mail_message_too_big": N_(
        "the message is {size_mb} MB, at most {most_mb} MB is fetched (MAIL_MAX_MESSAGE_MB)",
    ),
    "mail_part_refused": N_("{file}: not taken from the message «{subject}» from {sender}: {why}"),
    # mail: the server
    "mail_not_configured": N_(
        "no mailbox is set: set MAIL_HOST and MAIL_USER, and the password in Settings → Mail (or "
        "MAIL_PASSWORD)",
    ),
    "mail_certificate": N_(
        "{host}:{port}: the mail server's certificate was not accepted ({error}); set "
        "MAIL_CA_FILE to the office's certificate authority",
    ),
    "mail_stalled": N_(
        "{host}:{port}: the mail server did not answer within {seconds} s (MAIL_TIMEOUT); tried "
        "again at the next check",
    ),
    "mail_unreachable": N_(
        "{host}:{port}: the mail server cannot be reached ({error}); check MAIL_HOST, MAIL_PORT "
        "and MAIL_SECURITY",
    ),
    "mail_login_refused": N_(
        "{host}:{port}: the mail server refused the login of {user} ({error}); check MAIL_USER "
        "and the password",
    ),
    "mail_command_failed": N_("{host}:{port}: the mail server refused {command} ({error})"),
    # mail: what a check did (log lines and the CLI)
    "mail_queued": N_("{folder}: {file} from «{subject}» ({sender}) queued as job {job}"),
    "mail_refused": N_("{folder}: {file} from «{subject}» ({sender}) refused: {why}"),
    "mail_nothing_to_take": N_(
        "{folder}: the message «{subject}» ({sender}) has no attachment DocBatch reads{others}; "
        "left as it is (MAIL_BODY_AS_PDF takes its text)",
    ),
    "mail_checked": NN_(
        "mailbox {user}@{host}: {messages} new message, {queued} queued, {refused} refused",
        "mailbox {user}@{host}: {messages} new messages, {queued} queued, {refused} refused",
        "messages",
    ),
    "mail_check_failed": N_("mailbox check failed: {error}"),
    "mail_connection_ok": N_("{user}@{host}:{port} ({security}): logged in; folders {folders}"),
    "mail_folder_missing": N_(
        "the folder {folder} is not in the mailbox (MAIL_FOLDERS); it has {folders}",
    ),
    # documents that arrive as data
    "xml_too_big": N_("{file}: the XML is {size_mb} MB, at most {most_mb} MB is read"),
    "xml_declares_entities": N_(
        "{file}: the XML declares a document type or entities (<!DOCTYPE>, <!ENTITY>), which "
        "invoices never do; refused unread as a possible XML bomb",
    ),
    "xml_too_deep": NN_(
        "{file}: the XML nests elements deeper than {most} level; refused",
        "{file}: the XML nests elements deeper than {most} levels; refused",
        "most",
    ),
    "xml_malformed": N_(
        "{file}: not well-formed XML (line {line}: {error}); get a fresh copy from the sender or "
        "the ЭДО operator",
    ),
    "xml_unknown": N_(
        "{file}: an XML DocBatch does not read (root element {root}); it reads УПД and "
        "счёт-фактура (formats 5.01, 5.03), CII (Factur-X, ZUGFeRD) and UBL invoices",
    ),
    "upd_buyer_title": N_(
        "{file}: the buyer's title of an УПД (ON_NSCHFDOPPOK) holds no invoice; add the seller's "
        "file (ON_NSCHFDOPPR) or the whole ЭДО package",
    ),
    "upd_version": N_("{file}: УПД format {version} is not read (5.01 and 5.03 are)"),
    "upd_function": N_("{file}: the УПД's Функция is {function}, not СЧФ, ДОП or СЧФДОП"),
    "upd_missing": N_("{file}: the УПД has no {what}; get a fresh copy from the ЭДО operator"),
    "einvoice_missing": N_("{file}: the e-invoice has no {what}"),
    "edo_no_documents": N_("{file}: the archive holds no УПД, CII or UBL XML"),
    "facturx_unreadable": N_("{file}: the embedded invoice cannot be read ({error})"),
    "facturx_none": N_("{file}: the PDF names an embedded invoice but holds none"),
}

#: code → {parameter: its words}: a second number in a message, worded before it is put in
DATA_COUNTED: dict[str, dict[str, Plural]] = {
    "mail_checked": {"queued": NN_("{queued} file", "{queued} files", "queued")}
}
