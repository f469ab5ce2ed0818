"""The mailbox intake's part of the store contract: a job's origin and the ledger of
messages taken, alike on every backend."""

from __future__ import annotations

from docbatch_gui.storage.store import Store
from tests.contract.store_contract import SHA_A, new_job


class MailContract:
    def test_a_job_keeps_where_its_file_came_from(self, store: Store) -> None:
        origin = {
            "source": "mail",
            "folder": "INBOX",
            "message_id": "<a@b>",
            "sender": "Бухгалтерия <acc@example.test>",
            "subject": "Счёт № 5",
            "date": "2026-11-30T10:00:00+03:00",
        }
        job = store.create_job(new_job(SHA_A, origin=origin))
        assert store.get_job(job.id).origin == origin
        assert store.get_job(job.id).as_dict()["origin"] == origin
        plain = store.create_job(new_job(SHA_A, name="b.pdf"))
        assert store.get_job(plain.id).origin is None

    def test_a_message_is_remembered_once_taken(self, store: Store) -> None:
        assert store.mail_taken("id:a@b") is None
        store.remember_mail("id:a@b", {"folder": "INBOX", "attachments": [{"sha256": SHA_A}]})
        assert store.mail_taken("id:a@b") == {"folder": "INBOX", "attachments": [{"sha256": SHA_A}]}
        store.remember_mail("id:a@b", {"folder": "Archive", "attachments": []})
        assert store.mail_taken("id:a@b") == {"folder": "Archive", "attachments": []}
        assert store.mail_taken("id:other") is None
