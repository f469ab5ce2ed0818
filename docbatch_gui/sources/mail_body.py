"""A message without attachments, as one PDF of its text (``MAIL_BODY_AS_PDF``):
a supplier who types the invoice into the mail body still gets a document read."""

from __future__ import annotations

import html
import io

from docbatch_gui.sources.mail_message import Letter

#: the margin on A4, in points (2 cm)
_MARGIN = 57
#: the most text put on pages; a longer body is cut (what follows is rarely the invoice)
MAX_CHARS = 20_000
MAX_PAGES = 5


def body_pdf(letter: Letter) -> bytes:
    """The sender, subject, date and body text on A4 pages (at most ``MAX_PAGES``)."""
    # deferred: 0.7 s of the window's first show (pymupdf imports pymupdf4llm and onnxruntime)
    import pymupdf

    page = pymupdf.paper_rect("a4")
    box = pymupdf.Rect(_MARGIN, _MARGIN, page.width - _MARGIN, page.height - _MARGIN)
    head = "".join(
        f"<p><b>{html.escape(label)}:</b> {html.escape(value)}</p>"
        for label, value in (
            ("From", letter.sender),
            ("Subject", letter.subject),
            ("Date", letter.date or ""),
        )
    )
    body = html.escape(letter.body[:MAX_CHARS]).replace("\n", "<br>")
    story = pymupdf.Story(f"{head}<hr><p>{body}</p>")
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    for _ in range(MAX_PAGES):
        device = writer.begin_page(page)
        more, _filled = story.place(box)
        story.draw(device)
        writer.end_page()
        if not more:
            break
    writer.close()
    return buffer.getvalue()
