"""Why a document needs a person, as data: a code, the field it is about, parameters.

Every reason a reader, a check or a reprocess gives is a :class:`ReviewCode`. The
words come last, from :data:`TEMPLATES`, in the language of whoever reads them (the
CLI, the window in English or Russian, a script that reads the codes and words them
itself). The stored form is ``{"code", "field", "params"}``; ``documents --json``
gives it as ``review_codes`` beside the English ``review_reasons``.

A template's placeholders are the code's parameters plus ``{field}``, the field's
label in that language when the caller knows it (else its key). A parameter that is
missing or of the wrong type never breaks the wording: the code and its raw
parameters are shown instead, so an old record or a newer code is still readable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

LANGUAGES = ("en", "ru")

#: code → {language: template}. Keep every code in both languages (a test checks).
TEMPLATES: dict[str, dict[str, str]] = {
    # what the readers say
    "type_unknown": {
        "en": "document type unknown",
        "ru": "тип документа не определён",
    },
    "field_missing": {
        "en": "{field} not found",
        "ru": "{field}: не найдено",
    },
    "low_confidence": {
        "en": "{field} uncertain (confidence {confidence:.2f})",
        "ru": "{field}: неуверенно (уверенность {confidence:.2f})",
    },
    "unreadable_value": {
        "en": "{field} {value!r} is not readable as a value of this kind; left empty",
        "ru": "{field}: значение {value!r} не читается; оставлено пустым",
    },
    "read_twice": {
        "en": "{field} was read twice ({first!r}, {second!r}); left empty",
        "ru": "{field}: прочитано дважды ({first!r}, {second!r}); оставлено пустым",
    },
    "filename_mismatch": {
        "en": "{field} differs from file name ({value} vs {hint})",
        "ru": "{field} не совпадает с именем файла ({value} и {hint})",
    },
    # what happened to the pages
    "pages_no_text": {
        "en": "no text layer on {pages} (scan): OCR needed",
        "ru": "нет текстового слоя на {pages} (скан): нужно распознавание",
    },
    "pages_little_text": {
        "en": "almost no text on {pages} (a few characters in the file's text layer)",
        "ru": "почти нет текста на {pages} (несколько символов в текстовом слое файла)",
    },
    "pages_ocr_empty": {
        "en": "OCR ({engine}) found no readable text on {pages}: check the scan",
        "ru": "распознавание ({engine}) не нашло текста на {pages}: проверьте скан",
    },
    "pages_not_rendered": {
        "en": "{pages} could not be rendered in time (PAGE_TIMEOUT or the job's time): only "
        "the file's text "
        "layer was read; check it against the source file",
        "ru": "не удалось вовремя отрисовать {pages} (PAGE_TIMEOUT или время задания): "
        "прочитан только "
        "текстовый слой файла; сверьте с исходным файлом",
    },
    "orientation_uncertain": {
        "en": "orientation uncertain on {pages}: kept as scanned; turn it if it is upside "
        "down or sideways",
        "ru": "ориентация не ясна на {pages}: оставлено как отсканировано; поверните, "
        "если страница перевёрнута или лежит на боку",
    },
    "reprocessed_after_confirm": {
        "en": "processed again after {who} confirmed it: {changed} changed; check and "
        "confirm again",
        "ru": "обработано повторно после подтверждения ({who}): изменились {changed}; "
        "проверьте и подтвердите снова",
    },
    # field checks
    "inn_invalid": {
        "en": "{field}: INN {value} fails the checksum",
        "ru": "{field}: ИНН {value} не проходит проверку контрольного числа",
    },
    "kpp_invalid": {
        "en": "{field}: KPP {value} is not 9 characters of the form NNNNPPNNN",
        "ru": "{field}: КПП {value} не в формате NNNNPPNNN из 9 знаков",
    },
    "ogrn_invalid": {
        "en": "{field}: OGRN {value} fails the checksum",
        "ru": "{field}: ОГРН {value} не проходит проверку контрольного числа",
    },
    "bik_invalid": {
        "en": "{field}: BIK {value} is not 9 digits starting with 04",
        "ru": "{field}: БИК {value} не из 9 цифр, начинающихся с 04",
    },
    "account_key_invalid": {
        "en": "{field}: account {value} does not match BIK {bik} (control key)",
        "ru": "{field}: счёт {value} не соответствует БИК {bik} (контрольный ключ)",
    },
    "vat_over_total": {
        "en": "{field}: VAT {value} is more than the total {amount}",
        "ru": "{field}: НДС {value} больше суммы {amount}",
    },
    "vat_mismatch": {
        "en": "{field}: VAT {value} is not {rates} of the total {amount} as of {date} "
        "(expected {expected})",
        "ru": "{field}: НДС {value} не равен {rates} от суммы {amount} на {date} "
        "(ожидалось {expected})",
    },
    "vat_without": {
        "en": "{field}: VAT {value} on a document marked without VAT",
        "ru": "{field}: НДС {value} в документе с пометкой «без НДС»",
    },
    "same_party": {
        "en": "{field}: seller and buyer are the same ({value})",
        "ru": "{field}: продавец и покупатель совпадают ({value})",
    },
    "date_future": {
        "en": "{field}: {value} is in the future",
        "ru": "{field}: {value} — дата в будущем",
    },
    "date_too_old": {
        "en": "{field}: {value} is before {year}",
        "ru": "{field}: {value} — раньше {year} года",
    },
    "likely_duplicate": {
        "en": "likely the same document as document {document} of job {job} ({file}): "
        "same seller, number, date and amount; mark it Not a duplicate if it is another one",
        "ru": "похоже, это тот же документ, что документ {document} задания {job} ({file}): "
        "тот же продавец, номер, дата и сумма; отметьте «Не дубликат», если это другой",
    },
    "not_on_page": {
        "en": "{field}: {value} was not found on the page; check it against the page",
        "ru": "{field}: {value} не найдено на странице; сверьте со страницей",
    },
    # what the lines say against themselves and the totals (``checks.lines``); a code
    # with a ``kind`` parameter is worded by "code:kind" when that template exists
    "line_arithmetic": {
        "en": "line {row} (page {page}) does not add up",
        "ru": "строка {row} (стр. {page}) не сходится",
    },
    "line_arithmetic:qty_price": {
        "en": "line {row} (page {page}): quantity × price is {expected}, the line says {printed}",
        "ru": "строка {row} (стр. {page}): количество × цена = {expected}, в строке {printed}",
    },
    "line_arithmetic:net_vat": {
        "en": "line {row} (page {page}): net + VAT is {expected}, the line says {printed}",
        "ru": "строка {row} (стр. {page}): сумма без НДС + НДС = {expected}, в строке {printed}",
    },
    "line_arithmetic:vat_rate": {
        "en": "line {row} (page {page}): VAT at {rate}% of {net} is {expected}, the line "
        "says {printed}",
        "ru": "строка {row} (стр. {page}): НДС {rate}% от {net} = {expected}, в строке {printed}",
    },
    "line_arithmetic:required": {
        "en": "line {row} (page {page}): {column} not read",
        "ru": "строка {row} (стр. {page}): не прочитано «{column}»",
    },
    "lines_sum_mismatch": {
        "en": "the lines add up to {sum}, the document says {total}",
        "ru": "сумма строк {sum}, в документе {total}",
    },
    "lines_sum_mismatch:vat": {
        "en": "the lines' VAT adds up to {sum}, the document's VAT is {total}",
        "ru": "НДС строк в сумме {sum}, НДС документа {total}",
    },
    "lines_incomplete": {
        "en": "the table of goods is incomplete",
        "ru": "таблица товаров неполная",
    },
    "lines_incomplete:gap": {
        "en": "line numbers missing from the table: {numbers}",
        "ru": "в таблице пропущены строки с номерами: {numbers}",
    },
    "lines_incomplete:repeat": {
        "en": "line numbers read twice: {numbers}",
        "ru": "номера строк прочитаны дважды: {numbers}",
    },
    "lines_incomplete:count": {
        "en": "{read} lines read, the document prints {printed}",
        "ru": "прочитано строк: {read}, в документе указано {printed}",
    },
    "lines_incomplete:open": {
        "en": "the table goes on past page {page}, the last page read",
        "ru": "таблица продолжается после стр. {page}, последней прочитанной",
    },
    "lines_missing": {
        "en": "{pages} show a table of goods, but no line was read",
        "ru": "на {pages} есть таблица товаров, но ни одна строка не прочитана",
    },
    "lines_not_read_offline": {
        "en": "{pages}: a scan; the offline reader reads no lines from it (use Claude)",
        "ru": "{pages}: скан; без Claude строки из него не читаются",
    },
    # what the counterparty's earlier documents say
    "counterparty_name": {
        "en": "{field}: {value} differs from the name confirmed for this INN ({usual})",
        "ru": "{field}: {value} отличается от подтверждённого для этого ИНН ({usual})",
    },
    "counterparty_vat_rate": {
        "en": "{field}: VAT rate {rate} differs from this counterparty's usual {usual}",
        "ru": "{field}: ставка НДС {rate} отличается от обычной для контрагента ({usual})",
    },
    "counterparty_number_format": {
        "en": "{field}: {value} differs from this counterparty's usual number format ({usual})",
        "ru": "{field}: {value} не похож на обычный формат номера контрагента ({usual})",
    },
    "counterparty_type": {
        "en": "document type {value} is unusual for this counterparty (usually {usual})",
        "ru": "тип документа {value} необычен для контрагента (обычно {usual})",
    },
    # free text: a model's note, or a reason stored before reasons had codes
    "note": {
        "en": "{text}",
        "ru": "{text}",
    },
}


@dataclasses.dataclass(frozen=True)
class ReviewCode:
    """One reason for review: which rule, about which field, with what values."""

    code: str
    field: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> ReviewCode:
        params = body.get("params")
        name = body.get("field")
        return cls(
            code=str(body.get("code") or "note"),
            field=str(name) if name else None,
            params=dict(params) if isinstance(params, Mapping) else {},
        )

    @classmethod
    def note(cls, text: str, field: str | None = None) -> ReviewCode:
        """A free-text reason (a model's note, an old record)."""
        return cls("note", field, {"text": text})

    def words(self, language: str = "en", labels: Mapping[str, str] | None = None) -> str:
        """The reason in ``language``, with the field's label when ``labels`` has it."""
        kind = self.params.get("kind")
        templates = TEMPLATES.get(f"{self.code}:{kind}") if isinstance(kind, str) else None
        templates = templates or TEMPLATES.get(self.code)
        if templates is None:
            return self._raw()
        template = templates.get(language) or templates["en"]
        label = (labels or {}).get(self.field or "", self.field or "")
        params = {k: _page_span(v, language) if k == "pages" else v for k, v in self.params.items()}
        try:
            return template.format(**{**params, "field": label})
        except (KeyError, IndexError, ValueError, TypeError):
            return self._raw()

    def _raw(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.params.items())
        subject = f"{self.field}: " if self.field else ""
        return f"{subject}{self.code}" + (f" ({shown})" if shown else "")


_PAGE_WORDS = {"ru": "стр."}


def _page_span(value: Any, language: str) -> Any:
    """Pages as stored ("page 3", "pages 1-3, 5": the English of ``page_ranges``) in
    ``language``: the numbers stay, the word before them is translated."""
    word = _PAGE_WORDS.get(language)
    if word is None or not isinstance(value, str):
        return value
    for prefix in ("pages ", "page "):
        if value.startswith(prefix):
            return f"{word} {value[len(prefix) :]}"
    return value


def codes_from_body(body: Mapping[str, Any]) -> list[ReviewCode]:
    """A stored document's codes; reasons saved before codes existed become notes."""
    raw = body.get("review_codes")
    if isinstance(raw, list):
        return [ReviewCode.from_dict(c) for c in raw if isinstance(c, Mapping)]
    return [ReviewCode.note(str(r)) for r in body.get("review_reasons") or []]


def without_fields(codes: list[ReviewCode], fields: set[str]) -> list[ReviewCode]:
    """The codes that are not about ``fields`` (a person has just set them)."""
    return [c for c in codes if c.field not in fields]
