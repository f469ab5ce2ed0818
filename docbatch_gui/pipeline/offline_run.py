"""Offline extraction as the parent sees it: a render child runs it, under the job's
deadline.

The extractor is pure CPU work: in the engine's own process it would hold the GIL and
stall the event loop, and with it every other job's progress and the GUI. The render
children are already there, warm, killable as a process group and replaced when they
die, so extraction is one more task for them; a stalled extractor is killed at the
deadline and a crashed one is counted against the file, exactly as rendering is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import UnsupportedInput
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.pipeline.isolate import ChildCrashed, ChildPool, DeadlineExceeded, error_of
from docbatch_gui.pipeline.offline import PageText
from docbatch_gui.pipeline.prepare import CHILD_ERRORS, ChildDied, PrepareTimeout
from docbatch_gui.pipeline.words import decode, decode_confidences


def extract_task(
    job_id: int, file_name: str, pages: Sequence[PageText], profile: Profile
) -> dict[str, Any]:
    """The child's task: pages as plain values, the profile as its file (the child
    loads it; compiled patterns do not cross a pipe)."""
    return {
        "kind": "extract",
        "job_id": job_id,
        "file_name": file_name,
        "profile": str(profile.source),
        "pages": [
            {
                "page_no": p.page_no,
                "text": p.text,
                "ocr_engine": p.ocr_engine,
                "words": [list(w) for w in p.words] if p.words else None,
                "ocr_words": [list(w) for w in p.ocr_words] if p.ocr_words else None,
            }
            for p in pages
        ],
    }


def offline_pages(pages: Sequence[Page], read: Callable[[str], bytes]) -> list[PageText]:
    """What the offline extractor reads of a job's pages: their text, and the words
    of their own text layer (``read`` gets a blob) for the table reader; a scan's OCR
    words are not read for lines offline, only for the OCR's confidence of each
    (``ocr_doubt``)."""
    out = []
    for page in pages:
        words = ocr_words = None
        if page.ocr_engine is None and page.words_sha:
            words = tuple(decode(read(page.words_sha)))
        elif page.words_sha:
            ocr_words = _ocr_words(read, page.words_sha)
        out.append(PageText(page.page_no, page.text, page.ocr_engine, words, ocr_words))
    return out


def _ocr_words(read: Callable[[str], bytes], sha: str) -> tuple[tuple[str, int], ...] | None:
    """The texts of a scan's OCR words with the engine's confidence of each; None when
    the blob carries no confidences, or is gone (the values are then read as before)."""
    try:
        blob = read(sha)
    except Exception:  # a missing blob: nothing to doubt the values by, never an error
        return None
    words, confidences = decode(blob), decode_confidences(blob)
    if not words or len(confidences) != len(words):
        return None
    return tuple((w[0], c) for w, c in zip(words, confidences, strict=True))


async def extract_in_child(
    pool: ChildPool,
    job_id: int,
    file_name: str,
    pages: Sequence[PageText],
    profile: Profile,
    deadline: float,
) -> list[Document]:
    """The job's documents, extracted in a leased child before ``deadline`` (a
    ``time.monotonic()`` value). Past it: ``PrepareTimeout``, the child group killed;
    a child that dies: ``ChildDied``."""
    documents: list[Document] = []
    async with pool.lease() as child:
        try:
            async for message in child.run(
                extract_task(job_id, file_name, pages, profile), deadline
            ):
                event = message.get("event")
                if event == "documents":
                    documents = [Document.from_body(d) for d in message["documents"]]
                elif event == "error":
                    error_class = CHILD_ERRORS.get(message["kind"], UnsupportedInput)
                    raise error_class(error_of(message), file=file_name)
        except DeadlineExceeded as exc:
            raise PrepareTimeout(
                coded("extract_timeout", file=file_name, pages=len(pages)),
                pages_done=0,
                pages_total=len(pages),
                confirmed=exc.termination_confirmed,
            ) from None
        except ChildCrashed as exc:
            raise ChildDied.coded(
                "extractor_crashed", {"file": file_name, "detail": str(exc)[:200]}, file=file_name
            ) from None
    return documents
