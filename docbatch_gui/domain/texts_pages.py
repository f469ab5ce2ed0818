"""The words of a page's own notes: why it has no image, how its turn was decided.

code → English template, marked for the catalogue (``domain.messages``). The
English is what ``Page.render_error`` and
``Page.orientation_note`` store and ``pages --json`` shows, so it stays the text
scripts and older versions read; the Review screen words the code again in the
interface language. The parts of a note (who voted, which way the letters run, where
OSD read) are codes of their own, passed as parameters, so a note reads as one
sentence in either language.
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, NN_, Plural

PAGE_TEXTS: dict[str, str | Plural] = {
    # the renderer gave the page up (PAGE_TIMEOUT): only its text layer was read
    "page_render_timeout": N_("rendering took longer than {seconds:g} s (PAGE_TIMEOUT)"),
    # ... or its share of the job's time ran out first (what JOB_TIMEOUT left for
    # the pages still to render was less than PAGE_TIMEOUT)
    "page_render_job_share": N_(
        "rendering took longer than {seconds:g} s, this page's share of what JOB_TIMEOUT left for "
        "the pages still to render",
    ),
    # who voted on the direction of the text
    "orient_source_layer": N_("text layer lines"),
    "orient_source_vision": N_("Vision word boxes"),
    # which way the letters run
    "orient_dir_0": N_("left to right"),
    "orient_dir_90": N_("bottom to top"),
    "orient_dir_180": N_("upside down"),
    "orient_dir_270": N_("top to bottom"),
    # a vote of the text lines or word boxes
    "orient_vote_too_little": N_("{source}: too little text to vote ({letters:.0f} letters)"),
    "orient_vote_short_turned": N_(
        "{source}: {share:.0%} of {letters:.0f} letters read {direction}, every line agreeing; "
        "turned {rotation}°",
    ),
    "orient_vote_short_weak": N_(
        "{source}: {share:.0%} of {letters:.0f} letters read {direction}, too few to turn it; "
        "kept as scanned",
    ),
    "orient_vote_upright": N_(
        "{source}: {share:.0%} of {letters:.0f} letters read {direction}; upright",
    ),
    "orient_vote_weak": N_(
        "{source}: {share:.0%} of {letters:.0f} letters read {direction}, under the {needed:.0%} "
        "needed; kept",
    ),
    "orient_vote_turned": N_(
        "{source}: {share:.0%} of {letters:.0f} letters read {direction}; turned {rotation}°",
    ),
    # Tesseract's orientation detection (OSD): where it read, what it answered
    "orient_osd_at": N_("OSD at {dpi} dpi"),
    "orient_osd_page": N_("OSD on the page image"),
    "orient_osd_none": N_("{where}: no answer (too little text); kept as scanned"),
    "orient_osd_no_answer": N_("{where}: no answer"),
    "orient_osd_said": N_("{where}: {rotation}° (score {score:.2f})"),
    "orient_osd_said_script": N_("{where}: {rotation}° (score {score:.2f}, script {script})"),
    "orient_osd_upright": N_("{said}; upright"),
    "orient_osd_weak": N_("{said}, under the {needed:g} needed; kept as scanned"),
    "orient_osd_foreign": N_("{said}, not a script of the OCR languages; kept as scanned"),
    "orient_osd_turned": N_("{said}; turned {rotation}°"),
    # the second vote on a weak OSD answer: the page read at each candidate angle
    "orient_read_upright": NN_(
        "{said}; read at {angles} angle: upright reads best (score {score:g}, next {next:g})",
        "{said}; read at {angles} angles: upright reads best (score {score:g}, next {next:g})",
        "angles",
    ),
    "orient_read_turned": NN_(
        "{said}; read at {angles} angle: turned {rotation}° reads best (score {score:g}, next "
        "{next:g}); turned {rotation}°",
        "{said}; read at {angles} angles: turned {rotation}° reads best (score {score:g}, next "
        "{next:g}); turned {rotation}°",
        "angles",
    ),
    "orient_read_close": NN_(
        "{said}; read at {angles} angle: no angle reads clearly better (best {rotation}° at "
        "{score:g}, next {next:g}); kept as scanned",
        "{said}; read at {angles} angles: no angle reads clearly better (best {rotation}° at "
        "{score:g}, next {next:g}); kept as scanned",
        "angles",
    ),
    # Tesseract on a label or a snippet
    "orient_small_image": N_("a small image: read enlarged, without OSD"),
    # a page with a text layer keeps the layer's turn; OCR's opinion is only noted
    "orient_ocr_not_used": N_("OCR not used to turn it: {ocr}"),
    "orient_layer_ocr_not_used": N_("{layer}; OCR not used to turn it: {ocr}"),
    # a page Tesseract could not read (the rest of the file goes on)
    "ocr_image_unreadable": N_("the page image cannot be read ({detail})"),
    "ocr_page_timeout": N_("Tesseract took longer than {seconds} s on this page"),
    "ocr_page_failed": N_("Tesseract failed on this page ({detail})"),
}
