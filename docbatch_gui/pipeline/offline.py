"""The offline extractor: split a file into documents, classify them, read fields.

It needs no API key and no network, so it is the mode that always works and the
baseline the Claude extractor is compared against. It only reads text layers:
a page without one (a scan) is reported as needing OCR instead of being guessed.
Every decision is a page-level heuristic driven by the profile (keywords, labels,
required fields), so tuning happens in JSON, not here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from docbatch_gui.config.profile import UNKNOWN, Profile
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.normalize import (
    find_dates,
    normalize_amount,
    normalize_number,
    normalize_text,
)
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.fields import extract_fields
from docbatch_gui.pipeline.filename import parse_filename
from docbatch_gui.pipeline.ocr_doubt import OcrWord, apply_ocr_doubt
from docbatch_gui.pipeline.review import review_reasons
from docbatch_gui.pipeline.tables import has_goods_table, read_table
from docbatch_gui.pipeline.textutil import page_ranges, split_lines
from docbatch_gui.pipeline.words import Word

__all__ = ["PageText", "classify", "extract_documents", "parse_filename"]

# A cue must be the whole line: "стр. 2" inside an address ("д. 1, стр. 2") is a building.
_PAGE_CUE_RE = re.compile(
    r"^\W*(?:(?:страница|лист|page)\.?\s*(?P<n>\d{1,3})(?:\s*(?:из|of|/)\s*(?P<t>\d{1,3}))?"
    r"|(?:стр|p)\.?\s*(?P<n2>\d{1,3})\s*(?:из|of|/)\s*(?P<t2>\d{1,3}))\W*$",
    re.IGNORECASE,
)
_NUMBER_HINT_RE = re.compile(r"№|#|(?<!\w)(?:no|nr|number|номер)(?!\w)", re.IGNORECASE)
_DATED_RE = re.compile(r"(?<!\w)(?:от|from|dated|of)\s*[«\"']?\s*$", re.IGNORECASE)
_SHORT_TITLE_WORDS = 7


@dataclass(frozen=True)
class PageText:
    page_no: int  # 1-based page of the source file
    text: str
    #: the OCR engine that read the page (None: the text is the file's own layer, or
    #: nothing read it); review reasons say what really happened
    ocr_engine: str | None = None
    #: the words of the page's own text layer with their boxes (``pipeline.words``),
    #: which the table reader reads lines from; None for a scan
    words: tuple[Word, ...] | None = None
    #: the OCR's words of a scan with its confidence of each (``ocr_doubt``), in
    #: reading order; None when the engine gave none
    ocr_words: tuple[OcrWord, ...] | None = None


@dataclass(frozen=True)
class _Title:
    lines: tuple[int, ...]  # heading lines on the page, the title first
    scores: dict[str, float]  # doc type → best title keyword weight over those lines

    @property
    def line(self) -> int:
        return self.lines[0]


@dataclass(frozen=True)
class _PageInfo:
    page_no: int
    lines: list[str]
    has_text: bool
    title: _Title | None
    cue: tuple[int, int | None] | None  # ("page X of N") → (X, N)
    ocr_engine: str | None = None
    chars: int = 0  # letters and digits on the page
    words: tuple[Word, ...] | None = None  # the text layer's words (``PageText.words``)
    ocr_words: tuple[OcrWord, ...] | None = None  # ``PageText.ocr_words``


@dataclass
class _Group:
    pages: list[_PageInfo] = field(default_factory=list)
    complete: bool = False  # a "page N of N" cue closed it


def _title_scores(norm: str, profile: Profile) -> dict[str, float]:
    scores: dict[str, float] = {}
    for doc_type in profile.doc_types:
        weights = [k.weight for k in doc_type.title if k.pattern.search(norm)]
        if weights:
            scores[doc_type.key] = max(weights)
    return scores


def _find_title(lines: list[str], profile: Profile) -> _Title | None:
    """The first line that reads as a document title, scored with every heading near it.

    Any line may start with "Договор" after a line wrap, so a title must start with a
    capital letter and be short (a heading) or carry a number or an "от <date>".
    Below the top region only a full "title № … от <date>" line counts, because
    invoices print the bank details block above their title. Scores of all headings
    count: a УПД prints both "Счет-фактура № …" and "Универсальный передаточный
    документ", and the stronger keyword must win.
    """
    headings: list[int] = []
    merged: dict[str, float] = {}
    for i, line in enumerate(lines[: profile.strong_title_region_lines]):
        first_letter = next((ch for ch in line if ch.isalpha()), "")
        if not first_letter.isupper():
            continue  # a wrapped prose line ("договор вступает в силу…"), not a heading
        norm = normalize_text(line)
        scores = _title_scores(norm, profile)
        if not scores:
            continue
        if i < profile.title_region_lines:
            heading = len(norm.split()) <= _SHORT_TITLE_WORDS and not line.endswith((",", ";"))
            qualifies = heading or bool(_NUMBER_HINT_RE.search(line)) or _dated(line)
        else:
            qualifies = not headings and bool(_NUMBER_HINT_RE.search(line) and find_dates(line))
        if qualifies:
            headings.append(i)
            for key, weight in scores.items():
                merged[key] = max(weight, merged.get(key, 0.0))
    return _Title(tuple(headings), merged) if headings else None


def _dated(line: str) -> bool:
    """A date right after "от"/"from"/"dated", as in a title, not "действует до 31.12"."""
    return any(_DATED_RE.search(line[:start]) for start, _e, _i in find_dates(line))


def _page_cue(lines: list[str]) -> tuple[int, int | None] | None:
    """ "Страница 2 из 3" / "Page 1 of 2" / "Лист 2", looked for at the top and bottom."""
    for line in lines[:3] + lines[-3:]:
        match = _PAGE_CUE_RE.match(line)
        if match is None:
            continue
        number = int(match.group("n") or match.group("n2"))
        total = match.group("t") or match.group("t2")
        total_n = int(total) if total else None
        if number >= 1 and (total_n is None or number <= total_n):
            return number, total_n
    return None


def _analyse(page: PageText, profile: Profile) -> _PageInfo:
    """A page with (almost) no text has no lines, so no title and no page cue."""
    alnum = sum(ch.isalnum() for ch in page.text)
    has_text = alnum >= max(1, profile.min_page_chars)
    lines = split_lines(page.text) if has_text else []
    return _PageInfo(
        page.page_no,
        lines,
        has_text,
        _find_title(lines, profile),
        _page_cue(lines),
        page.ocr_engine,
        alnum,
        page.words,
        page.ocr_words,
    )


def _unread_reasons(unread: Sequence[_PageInfo]) -> list[ReviewCode]:
    """What really happened on pages with (almost) no text, grouped by cause."""
    causes: dict[tuple[str, str], list[int]] = {}
    for page in unread:
        if page.ocr_engine:
            cause = ("pages_ocr_empty", page.ocr_engine)
        elif page.chars:
            cause = ("pages_little_text", "")
        else:
            cause = ("pages_no_text", "")
        causes.setdefault(cause, []).append(page.page_no)
    return [
        ReviewCode(code, params={"pages": page_ranges(numbers), "engine": engine})
        for (code, engine), numbers in causes.items()
    ]


def _split_pages(pages: Sequence[PageText], profile: Profile) -> list[list[_PageInfo]]:
    """Group pages into documents (page order is kept; a document never skips a page)."""
    groups: list[_Group] = []
    for page in sorted(pages, key=lambda p: p.page_no):
        info = _analyse(page, profile)
        current = groups[-1] if groups else None
        if not info.has_text:
            # A scan inside a document is its next page; it cannot open a document
            # of its own unless nothing precedes it or the previous one is complete.
            if current is None or current.complete:
                groups.append(_Group())
            groups[-1].pages.append(info)
            continue
        continues = info.cue is not None and info.cue[0] > 1
        starts = not continues and (info.title is not None or (info.cue or (0,))[0] == 1)
        if current is None or starts or (current.complete and not continues):
            groups.append(_Group())
        group = groups[-1]
        group.pages.append(info)
        if info.cue is not None and info.cue[1] is not None and info.cue[0] == info.cue[1]:
            group.complete = True
    return [g.pages for g in groups]


def classify(text: str, title_scores: Mapping[str, float], profile: Profile) -> tuple[str, float]:
    """Best doc type by keyword score, title keywords weighted ``title_weight`` times."""
    norm = normalize_text(text)
    best_key, best = UNKNOWN, 0.0
    for doc_type in profile.doc_types:
        if doc_type.key == UNKNOWN:
            continue
        score = sum(k.weight for k in doc_type.keywords if k.pattern.search(norm))
        score += profile.title_weight * title_scores.get(doc_type.key, 0.0)
        if score > best:
            best_key, best = doc_type.key, score
    if best < profile.min_type_score:
        return UNKNOWN, best
    return best_key, best


def _filename_conflicts(
    fields: dict[str, str | None], hints: dict[str, str | None]
) -> list[ReviewCode]:
    """Disagreement between the name and the content is worth a look by a person."""
    reasons = []
    checks: dict[str, Callable[[str], object]] = {
        "number": normalize_number,
        "date": str,
        "amount": normalize_amount,
    }
    for key, norm in checks.items():
        have, hint = fields.get(key), hints.get(key)
        if have and hint and norm(have) != norm(hint):
            reasons.append(ReviewCode("filename_mismatch", key, {"value": have, "hint": hint}))
    return reasons


def _build(
    job_id: int,
    index: int,
    pages: list[_PageInfo],
    hints: dict[str, str | None],
    single: bool,
    profile: Profile,
) -> Document:
    lines: list[str] = []
    title: _Title | None = None
    for page in pages:
        if title is None and page.title is not None and not lines:
            title = page.title
        lines.extend(page.lines)
    unread = [p for p in pages if not p.has_text]
    titles = list(title.lines) if title else []
    doc_type, _score = (
        classify("\n".join(lines), title.scores if title else {}, profile)
        if lines
        else (UNKNOWN, 0.0)
    )
    result = extract_fields(lines, titles, profile)
    ocr_words = [(str(t), int(c)) for p in pages for t, c in p.ocr_words or ()]
    kinds = {spec.key: spec.kind for spec in profile.fields}
    result.notes.extend(
        apply_ocr_doubt(
            result.values, result.confidence, kinds, ocr_words, profile.review_threshold
        )
    )

    reasons: list[ReviewCode] = []
    reasons.extend(_unread_reasons(unread))
    reasons.extend(review_reasons(doc_type, result.values, result.confidence, profile))
    reasons.extend(result.notes)
    if single:
        reasons.extend(_filename_conflicts(result.values, hints))
    table = read_table([(p.page_no, p.words) for p in pages if p.words], profile)
    scans = [
        p.page_no
        for p in pages
        if p.ocr_engine is not None and not p.words and has_goods_table(p.lines, profile)
    ]
    if scans and not table.lines and profile.line_fields:
        reasons.append(ReviewCode("lines_not_read_offline", params={"pages": page_ranges(scans)}))
    return Document(
        job_id=job_id,
        doc_index=index,
        doc_type=doc_type,
        page_from=pages[0].page_no,
        page_to=pages[-1].page_no,
        fields=result.values,
        confidence=result.confidence,
        filename_fields=dict(hints),
        needs_review=bool(reasons),
        review_codes=reasons,
        lines=table.lines,
        printed_rows=table.printed_rows,
        table_open=table.table_open,
    )


def extract_documents(
    job_id: int, file_name: str, pages: Sequence[PageText], profile: Profile
) -> list[Document]:
    """Split ``pages`` into documents and extract their fields; never raises on content.

    A file without any text becomes one ``unknown`` document over all pages with
    empty fields, flagged for OCR, so the operator always sees every page somewhere.
    """
    hints = parse_filename(file_name, profile)
    if not pages:
        return []
    groups = _split_pages(pages, profile)
    return [
        _build(job_id, i, group, hints, len(groups) == 1, profile) for i, group in enumerate(groups)
    ]
