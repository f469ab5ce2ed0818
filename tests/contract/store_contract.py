"""The store contract: every Store backend must pass this suite unchanged.

A backend's test module subclasses ``StoreContract`` and provides a ``store`` fixture
that yields an empty store. Nothing here knows which backend it runs on.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from docbatch_gui.domain.errors import ErrorKind, InvalidTransition, NotFound
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import BatchRecord, Document, NewJob, OcrRecord, Page, RequestRecord
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.domain.states import JobState, Phase
from docbatch_gui.storage.store import Store

SHA_A = "a" * 64
SHA_B = "b" * 64


def new_job(sha: str = SHA_A, name: str = "invoice.pdf", **kw: object) -> NewJob:
    return NewJob(name, f"/in/{name}", sha, 1234, **kw)  # type: ignore[arg-type]


def run_to(store: Store, job_id: int, *states: JobState) -> None:
    for state in states:
        store.transition(job_id, state)


class StoreContract:
    # -- jobs ---------------------------------------------------------------------------

    def test_create_job_starts_queued_with_intake_phase(self, store: Store) -> None:
        job = store.create_job(new_job())
        assert job.id > 0
        assert job.state is JobState.QUEUED
        assert job.phase is Phase.INTAKE
        assert job.attempts == 0
        assert job.file_name == "invoice.pdf"
        assert job.sha256 == SHA_A
        assert job.created_at is not None and job.created_at.tzinfo is not None
        assert store.get_job(job.id) == job

    def test_ids_are_unique_and_listed_in_order(self, store: Store) -> None:
        ids = [store.create_job(new_job(name=f"f{i}.pdf")).id for i in range(5)]
        assert len(set(ids)) == 5
        assert [j.id for j in store.list_jobs()] == sorted(ids)

    def test_get_missing_job_raises_not_found(self, store: Store) -> None:
        with pytest.raises(NotFound, match=r"^no job 999999$") as missing:
            store.get_job(999_999)
        assert (missing.value.what, missing.value.which) == ("job", 999_999)
        assert not isinstance(missing.value, KeyError)  # a bug's KeyError stays apart
        with pytest.raises(NotFound, match=r"^no job 999999$"):
            store.transition(999_999, JobState.CANCELED)
        with pytest.raises(NotFound, match=r"^no job 999999$"):
            store.update_job(999_999, progress=0.5)

    def test_a_missing_document_or_batch_is_not_found(self, store: Store) -> None:
        job = store.create_job(new_job())
        (doc,) = store.replace_documents(job.id, [Document(job.id, 0, "invoice", 1, 1)])
        assert doc.id is not None
        with pytest.raises(NotFound, match=rf"^job {job.id} has no document {doc.id + 1}$") as gone:
            store.update_document(replace(doc, id=doc.id + 1))
        assert (gone.value.what, gone.value.which) == ("document", doc.id + 1)
        with pytest.raises(NotFound, match=r"^no batch 999$") as batch:
            store.update_batch(999, status="ended")
        assert (batch.value.what, batch.value.which) == ("batch", 999)

    def test_list_jobs_filters_by_state_and_ids(self, store: Store) -> None:
        a = store.create_job(new_job(name="a.pdf"))
        b = store.create_job(new_job(name="b.pdf"))
        store.claim(b.id, JobState.PREPARING)
        assert [j.id for j in store.list_jobs(states=[JobState.QUEUED])] == [a.id]
        assert [j.id for j in store.list_jobs(states=[JobState.PREPARING])] == [b.id]
        assert [j.id for j in store.list_jobs(ids=[b.id])] == [b.id]
        assert store.list_jobs(states=[JobState.DONE]) == []

    def test_list_jobs_by_mode_with_a_limit_keeps_the_oldest(self, store: Store) -> None:
        ids = [
            store.create_job(new_job(name=f"{n}.pdf", mode="batch" if n % 2 else "sync")).id
            for n in range(6)
        ]
        batch = store.list_jobs(states=[JobState.QUEUED], mode="batch")
        assert [j.id for j in batch] == [ids[1], ids[3], ids[5]]
        assert [j.id for j in store.list_jobs(mode="batch", limit=2)] == [ids[1], ids[3]]
        assert store.list_jobs(mode="offline") == []

    def test_claim_moves_queued_job_once_and_counts_attempts(self, store: Store) -> None:
        job = store.create_job(new_job())
        deadline = datetime.now(UTC) + timedelta(minutes=15)
        claimed = store.claim(job.id, JobState.PREPARING, deadline=deadline)
        assert claimed is not None
        assert claimed.state is JobState.PREPARING
        assert claimed.phase is Phase.PREPARE
        assert claimed.attempts == 1
        assert claimed.deadline is not None
        assert abs((claimed.deadline - deadline).total_seconds()) < 1
        assert store.claim(job.id, JobState.PREPARING) is None

    def test_concurrent_claims_have_one_winner(self, store: Store) -> None:
        job = store.create_job(new_job())
        results: list[object] = []
        barrier = threading.Barrier(8)

        def claim() -> None:
            barrier.wait()
            results.append(store.claim(job.id, JobState.PREPARING))

        threads = [threading.Thread(target=claim) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(r is not None for r in results) == 1
        assert store.get_job(job.id).attempts == 1

    def test_full_happy_path_records_every_event(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.claim(job.id, JobState.PREPARING)
        run_to(store, job.id, JobState.EXTRACTING, JobState.BUILDING, JobState.DONE)
        assert store.get_job(job.id).state is JobState.DONE
        events = store.job_events(job.id)
        assert [e["to_state"] for e in events] == [
            "queued",
            "preparing",
            "extracting",
            "building",
            "done",
        ]
        assert events[-1]["from_state"] == "building"

    def test_forbidden_transition_changes_nothing(self, store: Store) -> None:
        job = store.create_job(new_job())
        with pytest.raises(InvalidTransition):
            store.transition(job.id, JobState.DONE)
        assert store.get_job(job.id).state is JobState.QUEUED
        assert len(store.job_events(job.id)) == 1

    def test_timed_out_job_never_becomes_done(self, store: Store) -> None:
        job = store.create_job(new_job())
        claimed = store.claim(job.id, JobState.PREPARING)
        assert claimed is not None
        store.transition(
            job.id,
            JobState.TIMED_OUT,
            error_kind=ErrorKind.TIMEOUT,
            error="too slow",
            termination_confirmed=True,
        )
        for target in (JobState.DONE, JobState.BUILDING, JobState.NEEDS_REVIEW):
            with pytest.raises(InvalidTransition):
                store.transition(job.id, target)
        stored = store.get_job(job.id)
        assert stored.state is JobState.TIMED_OUT
        assert stored.phase is Phase.PREPARE  # the phase it was in
        assert stored.error_kind is ErrorKind.TIMEOUT
        assert stored.termination_confirmed is True

    def test_stale_attempt_is_refused(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.claim(job.id, JobState.PREPARING)  # attempt 1
        store.transition(job.id, JobState.FAILED, error_kind=ErrorKind.RETRYABLE, error="busy")
        store.transition(job.id, JobState.QUEUED)
        store.claim(job.id, JobState.PREPARING)  # attempt 2
        with pytest.raises(InvalidTransition):
            store.transition(job.id, JobState.EXTRACTING, attempt=1)
        with pytest.raises(InvalidTransition):
            store.update_job(job.id, attempt=1, progress=0.5)
        moved = store.transition(job.id, JobState.EXTRACTING, attempt=2)
        assert moved.state is JobState.EXTRACTING

    def test_a_retry_base_counts_a_new_round_and_stale_workers_stay_fenced(
        self, store: Store
    ) -> None:
        """The operator's Retry stores where the new round of automatic attempts
        starts; ``attempts`` still only grows, so a worker of an older attempt is
        refused after the Retry as before it."""
        job = store.create_job(new_job())
        assert job.retry_base == 0  # a new job: its first round
        store.claim(job.id, JobState.PREPARING)  # attempt 1
        store.transition(job.id, JobState.FAILED, error_kind=ErrorKind.RETRYABLE, error="busy")
        retried = store.transition(job.id, JobState.QUEUED, attempt=1, retry_base=1)
        assert (retried.attempts, retried.retry_base) == (1, 1)
        claimed = store.claim(job.id, JobState.PREPARING)  # attempt 2, the new round's 1st
        assert claimed is not None and (claimed.attempts, claimed.retry_base) == (2, 1)
        with pytest.raises(InvalidTransition):
            store.update_job(job.id, attempt=1, progress=0.5)
        with pytest.raises(InvalidTransition):
            store.transition(job.id, JobState.FAILED, attempt=1, error="late")
        assert store.get_job(job.id) == claimed  # nothing of the stale worker written
        again = store.transition(job.id, JobState.QUEUED, attempt=2)  # an automatic requeue
        assert again.retry_base == 1  # kept: only the operator's Retry moves it

    def test_an_unknown_job_field_is_refused_and_nothing_written(self, store: Store) -> None:
        """mypy refuses a misspelt patch key (``JobPatch``); an untyped caller gets
        the same refusal at run time, from every backend."""
        job = store.create_job(new_job())
        patch: dict[str, object] = {"progres": 0.5, "documents": 3}
        with pytest.raises(ValueError, match=r"unknown job fields: \['progres'\]"):
            store.update_job(job.id, **patch)  # type: ignore[arg-type]
        assert store.get_job(job.id) == job

    def test_a_patch_sets_the_message_fields(self, store: Store) -> None:
        job = store.create_job(new_job())
        patched = store.update_job(
            job.id, error_code="setting_invalid", error_params={"variable": "BATCH_SIZE"}
        )
        assert patched.error_code == "setting_invalid"
        assert patched.error_params == {"variable": "BATCH_SIZE"}
        assert store.get_job(job.id) == patched

    def test_expected_state_is_checked(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.claim(job.id, JobState.PREPARING)
        with pytest.raises(InvalidTransition):
            store.transition(job.id, JobState.FAILED, expected=JobState.BUILDING)
        store.transition(job.id, JobState.FAILED, expected=[JobState.PREPARING, JobState.OCR])

    def test_requeue_clears_the_error(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.claim(job.id, JobState.PREPARING)
        store.transition(job.id, JobState.FAILED, error_kind=ErrorKind.UNSUPPORTED, error="bad")
        again = store.transition(job.id, JobState.QUEUED)
        assert again.error is None and again.error_kind is None
        assert again.attempts == 1

    def test_update_job_sets_fields_but_not_state(self, store: Store) -> None:
        job = store.create_job(new_job())
        updated = store.update_job(job.id, pages=12, progress=0.25)
        assert (updated.pages, updated.progress) == (12, 0.25)
        with pytest.raises(ValueError):
            store.update_job(job.id, state=JobState.DONE)
        with pytest.raises(ValueError):
            store.update_job(job.id, no_such_field=1)

    def test_find_original_skips_duplicates_and_failures(self, store: Store) -> None:
        assert store.find_original(SHA_A) is None
        failed = store.create_job(new_job())
        store.transition(failed.id, JobState.FAILED, error_kind=ErrorKind.UNSUPPORTED)
        assert store.find_original(SHA_A) is None
        first = store.create_job(new_job())
        dup = store.create_job(new_job(duplicate_of=first.id))
        store.transition(dup.id, JobState.DUPLICATE)
        assert store.find_original(SHA_A) == store.get_job(first.id)
        assert store.get_job(dup.id).duplicate_of == first.id
        assert store.find_original(SHA_B) is None

    def test_delete_job_removes_its_pages_and_documents(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages([Page(job.id, 1, 10, 20, "c" * 64, "d" * 64, "text")])
        store.replace_documents(job.id, [Document(job.id, 0, "invoice", 1, 1)])
        store.delete_job(job.id)
        with pytest.raises(NotFound):
            store.get_job(job.id)
        assert store.list_pages(job.id) == []
        assert store.list_documents(job.id) == []

    # -- pages --------------------------------------------------------------------------

    def test_pages_round_trip_in_order_and_replace(self, store: Store) -> None:
        job = store.create_job(new_job())
        pages = [Page(job.id, n, 900, 1275, "c" * 64, "d" * 64, f"p{n}") for n in (3, 1, 2)]
        store.put_pages(pages)
        assert [p.page_no for p in store.list_pages(job.id)] == [1, 2, 3]
        store.put_pages([Page(job.id, 2, 1, 1, None, None, "again")])
        assert store.list_pages(job.id)[1].text == "again"
        assert len(store.list_pages(job.id)) == 3

    def test_pages_become_deliverable_only_when_marked(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages([Page(job.id, n, 1, 1) for n in (1, 2)])
        assert not any(p.deliverable for p in store.list_pages(job.id))
        assert store.set_pages_deliverable(job.id, True) == 2
        assert all(p.deliverable for p in store.list_pages(job.id))
        assert store.get_job(job.id).artifacts_deliverable is True
        store.set_pages_deliverable(job.id, False)
        assert store.get_job(job.id).artifacts_deliverable is False
        store.delete_pages(job.id)
        assert store.list_pages(job.id) == []

    def test_a_page_keeps_its_small_image_and_a_page_without_one_reads_none(
        self, store: Store
    ) -> None:
        job = store.create_job(new_job())
        small = Page(
            job.id, 1, 900, 1275, "c" * 64, text_layer="reliable", small_image_sha="e" * 64
        )
        store.put_pages([small, Page(job.id, 2, 900, 1275, "c" * 64)])
        first, second = store.list_pages(job.id)
        assert first == small and first.small_image_sha == "e" * 64
        assert second.small_image_sha is None
        store.put_pages([replace(first, small_image_sha=None)])  # turned by OCR since
        assert store.list_pages(job.id)[0].small_image_sha is None

    def test_page_text_keeps_unicode(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages([Page(job.id, 1, 1, 1, text="Счёт № 5 — «Ромашка»")])
        assert store.list_pages(job.id)[0].text == "Счёт № 5 — «Ромашка»"

    # -- documents ----------------------------------------------------------------------

    def test_documents_round_trip_and_count_on_job(self, store: Store) -> None:
        job = store.create_job(new_job())
        docs = [
            Document(
                job.id,
                0,
                "invoice",
                1,
                2,
                fields={"number": "123", "amount": "118000.00", "date": None},
                confidence={"number": 0.9, "amount": 0.8, "date": 0.0},
                filename_fields={"number": "123"},
                handwritten_numbers=["77"],
                needs_review=True,
                review_codes=[ReviewCode("field_missing", "date")],
            ),
            Document(job.id, 1, "act", 3, 3),
        ]
        stored = store.replace_documents(job.id, docs)
        assert [d.doc_type for d in stored] == ["invoice", "act"]
        assert all(d.id is not None for d in stored)
        first = store.list_documents(job.id)[0]
        assert first.fields == {"number": "123", "amount": "118000.00", "date": None}
        assert first.confidence["number"] == 0.9
        assert first.review_reasons == ["date not found"]
        assert first.handwritten_numbers == ["77"]
        assert store.get_job(job.id).documents == 2
        store.replace_documents(job.id, docs[1:])
        assert [d.doc_type for d in store.list_documents(job.id)] == ["act"]
        assert store.get_job(job.id).documents == 1

    def test_documents_keep_their_ids_through_updates_and_a_replace(self, store: Store) -> None:
        job = store.create_job(new_job())
        first, second = store.replace_documents(
            job.id, [Document(job.id, 0, "invoice", 1, 1), Document(job.id, 1, "act", 2, 2)]
        )
        edited = replace(first, fields={"number": "7"}, audit=[{"action": "edit"}])
        assert store.update_document(edited).id == first.id
        assert [d.id for d in store.list_documents(job.id)] == [first.id, second.id]
        assert store.list_documents(job.id)[0].fields == {"number": "7"}
        again = store.replace_documents(
            job.id, [replace(second, doc_index=0, id=second.id), Document(job.id, 1, "act", 3, 3)]
        )
        assert again[0].id == second.id and again[1].id not in (first.id, second.id)
        with pytest.raises(NotFound):
            store.update_document(first)  # gone with the replace
        store.archive_documents(job.id, [edited], "not found again")
        (entry,) = store.document_history(job.id)
        assert entry["document_id"] == first.id and entry["reason"] == "not found again"
        assert entry["document"]["fields"] == {"number": "7"} and entry["at"]

    def test_list_documents_across_jobs(self, store: Store) -> None:
        a = store.create_job(new_job(name="a.pdf"))
        b = store.create_job(new_job(SHA_B, name="b.pdf"))
        store.replace_documents(b.id, [Document(b.id, 0, "act", 1, 1)])
        store.replace_documents(a.id, [Document(a.id, 0, "invoice", 1, 1)])
        assert [(d.job_id, d.doc_type) for d in store.list_documents()] == [
            (a.id, "invoice"),
            (b.id, "act"),
        ]

    # -- settings -----------------------------------------------------------------------

    def test_settings_round_trip(self, store: Store) -> None:
        assert store.get_setting("batch_worker_paused", False) is False
        store.set_setting("batch_worker_paused", True)
        assert store.get_setting("batch_worker_paused") is True
        store.set_setting("batch_worker_paused", False)
        assert store.get_setting("batch_worker_paused") is False
        store.set_setting("columns", {"a": [1, 2]})
        assert store.get_setting("columns") == {"a": [1, 2]}

    # -- Claude requests and cost -----------------------------------------------------

    def test_request_records_round_trip_and_update_in_place(self, store: Store) -> None:
        job = store.create_job(new_job())
        first = RequestRecord(
            job.id,
            f"job_{job.id}_batch_2",
            2,
            [9, 10],
            "errored",
            1,
            "retryable",
            coded("claude_busy", status=529, detail="overloaded"),
        )
        store.save_request(first)
        store.save_request(RequestRecord(job.id, f"job_{job.id}_batch_1", 1, [1, 2], "pending"))
        assert [r.group for r in store.list_requests(job.id)] == [1, 2]
        answer = [{"page_from": 9, "page_to": 10, "doc_type": "act"}]
        store.save_request(
            RequestRecord(
                job.id,
                first.custom_id,
                2,
                [9, 10],
                "succeeded",
                2,
                input_tokens=1500,
                output_tokens=300,
                cache_read_tokens=1200,
                cache_write_tokens=0,
                cost_usd=0.0123,
                answer=answer,
            )
        )
        records = store.list_requests(job.id)
        assert len(records) == 2
        assert records[1].state == "succeeded" and records[1].attempts == 2
        assert records[1].answer == answer and records[1].cost_usd == 0.0123
        assert records[1].cache_read_tokens == 1200
        other = store.create_job(new_job(SHA_B, name="b.pdf"))
        assert store.list_requests(other.id) == []

    def test_job_costs_are_stored(self, store: Store) -> None:
        job = store.create_job(new_job())
        assert job.cost_estimate_usd is None and job.cost_actual_usd is None
        updated = store.update_job(job.id, cost_estimate_usd=0.05, cost_actual_usd=0.031)
        assert (updated.cost_estimate_usd, updated.cost_actual_usd) == (0.05, 0.031)

    def test_routing_keeps_both_tiers_and_their_costs(self, store: Store) -> None:
        job = store.create_job(new_job())
        assert (job.escalated, job.first_model, job.escalation_reasons) == (False, None, [])
        first = RequestRecord(job.id, f"job_{job.id}_batch_1", 1, [1], "succeeded",
                              cost_usd=0.001, model="claude-haiku-5-5")  # fmt: skip
        second = RequestRecord(job.id, f"job_{job.id}_batch_1_esc", 1, [1], "succeeded",
                               cost_usd=0.02, model="claude-sonnet-5-5", tier="escalation",
                               reasons=["unsure"])  # fmt: skip
        store.save_request(first)
        store.save_request(second)
        records = {r.custom_id: r for r in store.list_requests(job.id)}
        assert records[first.custom_id] == first and records[second.custom_id] == second
        assert records[second.custom_id].escalation and not records[first.custom_id].escalation
        updated = store.update_job(
            job.id,
            first_model="claude-haiku-5-5",
            escalated=True,
            escalation_model="claude-sonnet-5-5",
            escalation_reasons=["unsure", "contradiction"],
            answered_by="claude-sonnet-5-5",
            cost_first_usd=0.001,
            cost_escalation_usd=0.02,
        )
        again = store.get_job(job.id)
        assert again == updated
        assert again.escalated is True and again.escalation_reasons == ["unsure", "contradiction"]
        assert (again.cost_first_usd, again.cost_escalation_usd) == (0.001, 0.02)
        assert again.as_dict()["answered_by"] == "claude-sonnet-5-5"

    def test_what_a_request_costs_more_goes_to_the_spend_ledger_once(self, store: Store) -> None:
        job = store.create_job(new_job())
        since = datetime.now(UTC) - timedelta(seconds=1)
        record = RequestRecord(job.id, f"job_{job.id}_batch_1", 1, [1], "pending")
        store.save_request(record)
        assert store.spent_between(since) == 0.0
        store.save_request(replace(record, state="succeeded", cost_usd=0.02))
        store.save_request(replace(record, state="succeeded", cost_usd=0.02))  # no growth
        assert store.spent_between(since) == pytest.approx(0.02)
        store.save_request(replace(record, state="succeeded", cost_usd=0.05))  # a retry paid
        assert store.spent_between(since) == pytest.approx(0.05)
        store.save_request(replace(record, state="pending", cost_usd=None))  # never refunded
        assert store.spent_between(since) == pytest.approx(0.05)

    def test_spend_is_summed_between_moments_and_outlives_its_job(self, store: Store) -> None:
        job = store.create_job(new_job())
        december = datetime(2026, 12, 1, tzinfo=UTC)
        store.record_spend(1.25, at=december - timedelta(seconds=1), job_id=job.id)
        store.record_spend(0.5, at=december, job_id=job.id, ref="x")
        store.record_spend(0.25, at=december + timedelta(days=3), job_id=job.id)
        store.delete_job(job.id)
        assert store.spent_between(december) == pytest.approx(0.75)
        assert store.spent_between(december - timedelta(days=30), december) == pytest.approx(1.25)
        naive = datetime(2026, 12, 1)  # a naive moment is UTC, as stored
        assert store.spent_between(naive) == pytest.approx(0.75)

    # -- batches ------------------------------------------------------------------------

    def test_batch_intent_then_id_then_results(self, store: Store) -> None:
        intent = store.create_batch(
            BatchRecord(["job_1_batch_1", "job_2_batch_1"], [1, 2], "2026-01-01T00:00:00+00:00")
        )
        assert intent.id is not None and intent.batch_id is None and intent.status == "intent"
        assert [b.id for b in store.list_batches(["intent"])] == [intent.id]
        created = store.update_batch(intent.id, batch_id="msgbatch_1", status="in_progress")
        assert created.request_ids == ["job_1_batch_1", "job_2_batch_1"]
        assert store.list_batches(["intent"]) == []
        store.update_batch(
            intent.id, status="ended", request_counts={"succeeded": 2}, results_done=True
        )
        (ended,) = store.list_batches(["ended"])
        assert ended.batch_id == "msgbatch_1" and ended.results_done
        assert ended.request_counts == {"succeeded": 2}
        with pytest.raises(NotFound):
            store.update_batch(999, status="ended")

    # -- OCR ------------------------------------------------------------------------------

    def test_ocr_cache_is_keyed_by_content_page_and_engine(self, store: Store) -> None:
        assert store.get_ocr(SHA_A, "tesseract") == {}
        store.put_ocr(OcrRecord(SHA_A, 2, "tesseract", "Счёт № 5", 90, 0.8))
        store.put_ocr(OcrRecord(SHA_A, 1, "tesseract", "page one"))
        store.put_ocr(OcrRecord(SHA_A, 1, "google_vision", "other engine"))
        cached = store.get_ocr(SHA_A, "tesseract")
        assert sorted(cached) == [1, 2]
        assert cached[2].text == "Счёт № 5" and cached[2].rotation == 90
        assert cached[2].rotation_confidence == 0.8
        assert store.get_ocr(SHA_B, "tesseract") == {}
        store.put_ocr(OcrRecord(SHA_A, 2, "tesseract", "again", 0, 0.1))
        assert store.get_ocr(SHA_A, "tesseract")[2].text == "again"

    def test_pages_keep_their_ocr_fields(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages(
            [
                Page(
                    job.id,
                    1,
                    10,
                    20,
                    text="x",
                    rotation=270,
                    rotation_confidence=0.9,
                    ocr_engine="tesseract",
                    ocr_cached=True,
                )
            ]
        )
        (page,) = store.list_pages(job.id)
        assert (page.rotation, page.ocr_engine, page.ocr_cached) == (270, "tesseract", True)
        assert page.rotation_confidence == 0.9

    def test_pages_and_ocr_keep_their_words_blob(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages([Page(job.id, 1, 10, 20, words_sha="w" * 64), Page(job.id, 2, 10, 20)])
        assert [p.words_sha for p in store.list_pages(job.id)] == ["w" * 64, None]
        store.put_ocr(OcrRecord(SHA_A, 1, "tesseract", "x", words_sha="v" * 64))
        assert store.get_ocr(SHA_A, "tesseract")[1].words_sha == "v" * 64

    def test_pages_keep_their_text_layer_verdict(self, store: Store) -> None:
        """The request plan reads the prepare step's verdict back (migration 14)."""
        job = store.create_job(new_job())
        store.put_pages(
            [
                Page(job.id, 1, 10, 20, text_layer="reliable", image_cover=0.05),
                Page(job.id, 2, 10, 20, text_layer="images", image_cover=0.98),
                Page(job.id, 3, 10, 20),
            ]
        )
        stored = [(p.text_layer, p.image_cover) for p in store.list_pages(job.id)]
        assert stored == [("reliable", 0.05), ("images", 0.98), ("", 0.0)]
