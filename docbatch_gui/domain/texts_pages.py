"""The words of a page's own notes: why it has no image, how its turn was decided.

code → {language: template}. The English template is what ``Page.render_error`` and
``Page.orientation_note`` store and ``pages --json`` shows, so it stays the text
scripts and older versions read; the Review screen words the code again in the
interface language. The parts of a note (who voted, which way the letters run, where
OSD read) are codes of their own, passed as parameters, so a note reads as one
sentence in either language.
"""

from __future__ import annotations

_VOTE = "{source}: {share:.0%} of {letters:.0f} letters read {direction}"
_VOTE_RU = "{source}: {share:.0%} букв из {letters:.0f} читаются {direction}"
_KEPT = "kept as scanned"
_KEPT_RU = "оставлена как отсканирована"

PAGE_TEXTS: dict[str, dict[str, str]] = {
    # the renderer gave the page up (PAGE_TIMEOUT): only its text layer was read
    "page_render_timeout": {
        "en": "rendering took longer than {seconds:g} s (PAGE_TIMEOUT)",
        "ru": "отрисовка заняла больше {seconds:g} с (PAGE_TIMEOUT)",
    },
    # ... or its share of the job's time ran out first (what JOB_TIMEOUT left for
    # the pages still to render was less than PAGE_TIMEOUT)
    "page_render_job_share": {
        "en": "rendering took longer than {seconds:g} s, this page's share of what "
        "JOB_TIMEOUT left for the pages still to render",
        "ru": "отрисовка заняла больше {seconds:g} с — доли этой страницы во времени, "
        "которое JOB_TIMEOUT оставил на ещё не отрисованные страницы",
    },
    # who voted on the direction of the text
    "orient_source_layer": {"en": "text layer lines", "ru": "строки текстового слоя"},
    "orient_source_vision": {"en": "Vision word boxes", "ru": "рамки слов Google Vision"},
    # which way the letters run
    "orient_dir_0": {"en": "left to right", "ru": "слева направо"},
    "orient_dir_90": {"en": "bottom to top", "ru": "снизу вверх"},
    "orient_dir_180": {"en": "upside down", "ru": "вверх ногами"},
    "orient_dir_270": {"en": "top to bottom", "ru": "сверху вниз"},
    # a vote of the text lines or word boxes
    "orient_vote_too_little": {
        "en": "{source}: too little text to vote ({letters:.0f} letters)",
        "ru": "{source}: слишком мало текста, чтобы судить о повороте (букв: {letters:.0f})",
    },
    "orient_vote_short_turned": {
        "en": _VOTE + ", every line agreeing; turned {rotation}°",
        "ru": _VOTE_RU + ", все строки согласны; повёрнута на {rotation}°",
    },
    "orient_vote_short_weak": {
        "en": _VOTE + ", too few to turn it; " + _KEPT,
        "ru": _VOTE_RU + ", этого мало для поворота; " + _KEPT_RU,
    },
    "orient_vote_upright": {"en": _VOTE + "; upright", "ru": _VOTE_RU + "; страница стоит прямо"},
    "orient_vote_weak": {
        "en": _VOTE + ", under the {needed:.0%} needed; kept",
        "ru": _VOTE_RU + ", меньше нужных {needed:.0%}; оставлена как есть",
    },
    "orient_vote_turned": {
        "en": _VOTE + "; turned {rotation}°",
        "ru": _VOTE_RU + "; повёрнута на {rotation}°",
    },
    # Tesseract's orientation detection (OSD): where it read, what it answered
    "orient_osd_at": {
        "en": "OSD at {dpi} dpi",
        "ru": "OSD при разрешении {dpi} точек на дюйм",
    },
    "orient_osd_page": {"en": "OSD on the page image", "ru": "OSD по изображению страницы"},
    "orient_osd_none": {
        "en": "{where}: no answer (too little text); " + _KEPT,
        "ru": "{where}: нет ответа (слишком мало текста); " + _KEPT_RU,
    },
    "orient_osd_no_answer": {
        "en": "{where}: no answer",
        "ru": "{where}: нет ответа",
    },
    "orient_osd_said": {
        "en": "{where}: {rotation}° (score {score:.2f})",
        "ru": "{where}: {rotation}° (оценка {score:.2f})",
    },
    "orient_osd_said_script": {
        "en": "{where}: {rotation}° (score {score:.2f}, script {script})",
        "ru": "{where}: {rotation}° (оценка {score:.2f}, письменность «{script}»)",
    },
    "orient_osd_upright": {"en": "{said}; upright", "ru": "{said}; страница стоит прямо"},
    "orient_osd_weak": {
        "en": "{said}, under the {needed:g} needed; " + _KEPT,
        "ru": "{said}, меньше нужных {needed:g}; " + _KEPT_RU,
    },
    "orient_osd_foreign": {
        "en": "{said}, not a script of the OCR languages; " + _KEPT,
        "ru": "{said}, это письменность не из языков OCR; " + _KEPT_RU,
    },
    "orient_osd_turned": {
        "en": "{said}; turned {rotation}°",
        "ru": "{said}; повёрнута на {rotation}°",
    },
    # the second vote on a weak OSD answer: the page read at each candidate angle
    "orient_read_upright": {
        "en": "{said}; read at {angles} angles: upright reads best (score {score:g}, next "
        "{next:g})",
        "ru": "{said}; прочитана под {angles} углами: прямо читается лучше всего (оценка "
        "{score:g}, следующая {next:g})",
    },
    "orient_read_turned": {
        "en": "{said}; read at {angles} angles: turned {rotation}° reads best (score "
        "{score:g}, next {next:g}); turned {rotation}°",
        "ru": "{said}; прочитана под {angles} углами: лучше всего читается повёрнутой на "
        "{rotation}° (оценка {score:g}, следующая {next:g}); повёрнута на {rotation}°",
    },
    "orient_read_close": {
        "en": "{said}; read at {angles} angles: no angle reads clearly better (best "
        "{rotation}° at {score:g}, next {next:g}); " + _KEPT,
        "ru": "{said}; прочитана под {angles} углами: ни один угол не читается явно лучше "
        "(лучший {rotation}° с оценкой {score:g}, следующая {next:g}); " + _KEPT_RU,
    },
    # Tesseract on a label or a snippet
    "orient_small_image": {
        "en": "a small image: read enlarged, without OSD",
        "ru": "маленькое изображение: прочитано увеличенным, без OSD",
    },
    # a page with a text layer keeps the layer's turn; OCR's opinion is only noted
    "orient_ocr_not_used": {
        "en": "OCR not used to turn it: {ocr}",
        "ru": "OCR не использовано для поворота: {ocr}",
    },
    "orient_layer_ocr_not_used": {
        "en": "{layer}; OCR not used to turn it: {ocr}",
        "ru": "{layer}; OCR не использовано для поворота: {ocr}",
    },
    # a page Tesseract could not read (the rest of the file goes on)
    "ocr_image_unreadable": {
        "en": "the page image cannot be read ({detail})",
        "ru": "изображение страницы не читается ({detail})",
    },
    "ocr_page_timeout": {
        "en": "Tesseract took longer than {seconds} s on this page",
        "ru": "Tesseract читал эту страницу дольше {seconds} с",
    },
    "ocr_page_failed": {
        "en": "Tesseract failed on this page ({detail})",
        "ru": "Tesseract не смог прочитать эту страницу ({detail})",
    },
}
