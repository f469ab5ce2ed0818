"""The words of the mailbox intake, of archives, and of documents that arrive as data
(УПД XML, Factur-X): what is refused and why, and what the intake did.

code → {language: template}, as in ``texts_jobs``.
"""

from __future__ import annotations

DATA_TEXTS: dict[str, dict[str, str]] = {
    # archives (mail attachments, ЭДО packages)
    "zip_damaged": {
        "en": "{file}: the zip archive cannot be read ({error})",
        "ru": "{file}: zip-архив не читается ({error})",
    },
    "zip_too_many": {
        "en": "{file}: the archive holds {count} files, at most {most} are taken",
        "ru": "{file}: в архиве {count} файлов, берётся не больше {most}",
    },
    "zip_bomb": {
        "en": "{file}: the archive would unpack to {size_mb} MB ({ratio} times its size); "
        "refused as a zip bomb",
        "ru": "{file}: архив распаковался бы в {size_mb} МБ (в {ratio} раз больше себя); "
        "отклонён как zip-бомба",
    },
    "zip_encrypted": {
        "en": "{file}: {member} in the archive is encrypted; send it without a password",
        "ru": "{file}: {member} в архиве зашифрован; пришлите его без пароля",
    },
    "zip_nested": {
        "en": "{file}: the archive holds another archive ({member}); send its files directly",
        "ru": "{file}: в архиве другой архив ({member}); пришлите его файлы напрямую",
    },
    # mail: one message or one of its parts refused
    "mail_too_many_attachments": {
        "en": "the message has {count} attachments, at most {most} are taken "
        "(MAIL_MAX_ATTACHMENTS)",
        "ru": "в письме {count} вложений, берётся не больше {most} (MAIL_MAX_ATTACHMENTS)",
    },
    "mail_too_deep": {
        "en": "a forwarded message nested deeper than {most} levels (MAIL_MAX_DEPTH)",
        "ru": "пересланное письмо вложено глубже {most} уровней (MAIL_MAX_DEPTH)",
    },
    "mail_attachment_unreadable": {
        "en": "the attachment is empty or its encoding is damaged",
        "ru": "вложение пустое или его кодировка повреждена",
    },
    "mail_attachment_too_big": {
        "en": "the attachment is {size_mb} MB, at most {most_mb} MB is taken "
        "(MAIL_MAX_ATTACHMENT_MB)",
        "ru": "вложение {size_mb} МБ, берётся не больше {most_mb} МБ (MAIL_MAX_ATTACHMENT_MB)",
    },
    "mail_message_too_big": {
        "en": "the message is {size_mb} MB, at most {most_mb} MB is fetched (MAIL_MAX_MESSAGE_MB)",
        "ru": "письмо {size_mb} МБ, загружается не больше {most_mb} МБ (MAIL_MAX_MESSAGE_MB)",
    },
    "mail_part_refused": {
        "en": "{file}: not taken from the message «{subject}» from {sender}: {why}",
        "ru": "{file}: не взят из письма «{subject}» от {sender}: {why}",
    },
    # mail: the server
    "mail_not_configured": {
        "en": "no mailbox is set: set MAIL_HOST and MAIL_USER, and the password in Settings "
        "→ Mail (or MAIL_PASSWORD)",
        "ru": "почтовый ящик не задан: укажите MAIL_HOST и MAIL_USER, а пароль в Настройки "
        "→ Почта (или MAIL_PASSWORD)",
    },
    "mail_certificate": {
        "en": "{host}:{port}: the mail server's certificate was not accepted ({error}); "
        "set MAIL_CA_FILE to the office's certificate authority",
        "ru": "{host}:{port}: сертификат почтового сервера не принят ({error}); "
        "укажите в MAIL_CA_FILE сертификат центра сертификации организации",
    },
    "mail_stalled": {
        "en": "{host}:{port}: the mail server did not answer within {seconds} s "
        "(MAIL_TIMEOUT); tried again at the next check",
        "ru": "{host}:{port}: почтовый сервер не ответил за {seconds} с (MAIL_TIMEOUT); "
        "повтор при следующей проверке",
    },
    "mail_unreachable": {
        "en": "{host}:{port}: the mail server cannot be reached ({error}); check MAIL_HOST, "
        "MAIL_PORT and MAIL_SECURITY",
        "ru": "{host}:{port}: почтовый сервер недоступен ({error}); проверьте MAIL_HOST, "
        "MAIL_PORT и MAIL_SECURITY",
    },
    "mail_login_refused": {
        "en": "{host}:{port}: the mail server refused the login of {user} ({error}); check "
        "MAIL_USER and the password",
        "ru": "{host}:{port}: почтовый сервер не принял вход {user} ({error}); проверьте "
        "MAIL_USER и пароль",
    },
    "mail_command_failed": {
        "en": "{host}:{port}: the mail server refused {command} ({error})",
        "ru": "{host}:{port}: почтовый сервер отказал в {command} ({error})",
    },
    # mail: what a check did (log lines and the CLI)
    "mail_queued": {
        "en": "{folder}: {file} from «{subject}» ({sender}) queued as job {job}",
        "ru": "{folder}: {file} из письма «{subject}» ({sender}) поставлен в очередь как "
        "задание {job}",
    },
    "mail_refused": {
        "en": "{folder}: {file} from «{subject}» ({sender}) refused: {why}",
        "ru": "{folder}: {file} из письма «{subject}» ({sender}) отклонён: {why}",
    },
    "mail_nothing_to_take": {
        "en": "{folder}: the message «{subject}» ({sender}) has no attachment DocBatch "
        "reads{others}; left as it is (MAIL_BODY_AS_PDF takes its text)",
        "ru": "{folder}: в письме «{subject}» ({sender}) нет вложений, которые читает "
        "DocBatch{others}; оставлено как есть (MAIL_BODY_AS_PDF берёт его текст)",
    },
    "mail_checked": {
        "en": "mailbox {user}@{host}: {messages} new messages, {queued} files queued, "
        "{refused} refused",
        "ru": "ящик {user}@{host}: новых писем {messages}, в очередь {queued} файлов, "
        "отклонено {refused}",
    },
    "mail_check_failed": {
        "en": "mailbox check failed: {error}",
        "ru": "проверка почты не удалась: {error}",
    },
    "mail_connection_ok": {
        "en": "{user}@{host}:{port} ({security}): logged in; folders {folders}",
        "ru": "{user}@{host}:{port} ({security}): вход выполнен; папки {folders}",
    },
    "log_mail": {"en": "mailbox: {line}", "ru": "почта: {line}"},
    "mail_folder_missing": {
        "en": "the folder {folder} is not in the mailbox (MAIL_FOLDERS); it has {folders}",
        "ru": "папки {folder} нет в ящике (MAIL_FOLDERS); есть {folders}",
    },
    # documents that arrive as data
    "xml_too_big": {
        "en": "{file}: the XML is {size_mb} MB, at most {most_mb} MB is read",
        "ru": "{file}: XML занимает {size_mb} МБ, читается не больше {most_mb} МБ",
    },
    "xml_declares_entities": {
        "en": "{file}: the XML declares a document type or entities (<!DOCTYPE>, "
        "<!ENTITY>), which invoices never do; refused unread as a possible XML bomb",
        "ru": "{file}: в XML объявлен тип документа или сущности (<!DOCTYPE>, <!ENTITY>), "
        "чего в счетах не бывает; отклонён непрочитанным как возможная XML-бомба",
    },
    "xml_too_deep": {
        "en": "{file}: the XML nests elements deeper than {most} levels; refused",
        "ru": "{file}: в XML элементы вложены глубже {most} уровней; отклонён",
    },
    "xml_malformed": {
        "en": "{file}: not well-formed XML (line {line}: {error}); get a fresh copy from "
        "the sender or the ЭДО operator",
        "ru": "{file}: XML повреждён (строка {line}: {error}); возьмите свежую копию у "
        "отправителя или оператора ЭДО",
    },
    "xml_unknown": {
        "en": "{file}: an XML DocBatch does not read (root element {root}); it reads УПД "
        "and счёт-фактура (formats 5.01, 5.03), CII (Factur-X, ZUGFeRD) and UBL invoices",
        "ru": "{file}: такой XML DocBatch не читает (корневой элемент {root}); он читает "
        "УПД и счета-фактуры (форматы 5.01, 5.03), счета CII (Factur-X, ZUGFeRD) и UBL",
    },
    "upd_buyer_title": {
        "en": "{file}: the buyer's title of an УПД (ON_NSCHFDOPPOK) holds no invoice; add "
        "the seller's file (ON_NSCHFDOPPR) or the whole ЭДО package",
        "ru": "{file}: титул покупателя УПД (ON_NSCHFDOPPOK) не содержит счёта; добавьте "
        "файл продавца (ON_NSCHFDOPPR) или весь пакет ЭДО",
    },
    "upd_version": {
        "en": "{file}: УПД format {version} is not read (5.01 and 5.03 are)",
        "ru": "{file}: формат УПД {version} не читается (читаются 5.01 и 5.03)",
    },
    "upd_function": {
        "en": "{file}: the УПД's Функция is {function}, not СЧФ, ДОП or СЧФДОП",
        "ru": "{file}: Функция УПД равна {function}, а не СЧФ, ДОП или СЧФДОП",
    },
    "upd_missing": {
        "en": "{file}: the УПД has no {what}; get a fresh copy from the ЭДО operator",
        "ru": "{file}: в УПД нет {what}; возьмите свежую копию у оператора ЭДО",
    },
    "einvoice_missing": {
        "en": "{file}: the e-invoice has no {what}",
        "ru": "{file}: в электронном счёте нет {what}",
    },
    "edo_no_documents": {
        "en": "{file}: the archive holds no УПД, CII or UBL XML",
        "ru": "{file}: в архиве нет XML УПД, CII или UBL",
    },
    "facturx_unreadable": {
        "en": "{file}: the embedded invoice cannot be read ({error})",
        "ru": "{file}: встроенный счёт не читается ({error})",
    },
    "facturx_none": {
        "en": "{file}: the PDF names an embedded invoice but holds none",
        "ru": "{file}: PDF называет встроенный счёт, но его нет",
    },
}
