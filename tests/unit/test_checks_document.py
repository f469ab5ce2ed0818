"""The document checker: codes on the right field, confidence below review, no
duplicates, a fixed value clears its code, and profiles with bank-detail fields."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from docbatch_gui.checks.document import CHECK_CONFIDENCE, DocumentChecker, document_text
from docbatch_gui.config.profile import Profile, default_profile_path, load_profile
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.llm.answers import parse_answer
from docbatch_gui.pipeline.offline import PageText, extract_documents

TODAY = date(2026, 12, 1)
CLEAN = {
    "number": "123",
    "date": "2024-03-12",
    "amount": "118000.00",
    "currency": "RUB",
    "vat_amount": "19666.67",
    "seller": "ПАО Сбербанк",
    "buyer": "ООО «Яндекс»",
    "seller_tax_id": "7707083893",
    "buyer_tax_id": "7736207543",
}
BANK_FIELDS = [
    {"key": "seller_kpp", "kind": "kpp", "party": "seller", "labels": {"en": "Seller KPP"}},
    {"key": "buyer_kpp", "kind": "kpp", "party": "buyer", "labels": {"en": "Buyer KPP"}},
    {"key": "seller_ogrn", "kind": "ogrn", "party": "seller", "labels": {"en": "Seller OGRN"}},
    {"key": "seller_bik", "kind": "bik", "party": "seller", "labels": {"en": "Seller BIK"}},
    {
        "key": "seller_account",
        "kind": "account",
        "party": "seller",
        "labels": {"en": "Seller account"},
    },
    {
        "key": "seller_corr_account",
        "kind": "account",
        "party": "seller",
        "labels": {"en": "Seller corr. account"},
    },
]
BANK_VALUES = {
    "seller_kpp": "773601001",
    "buyer_kpp": "770401001",
    "seller_ogrn": "1027700132195",
    "seller_bik": "044525225",
    "seller_account": "40702810938000012345",
    "seller_corr_account": "30101810400000000225",
}


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


@pytest.fixture(scope="module")
def bank_profile(tmp_path_factory: pytest.TempPathFactory) -> Profile:
    """The bundled profile plus KPP, OGRN, BIK and account fields."""
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data["fields"].extend(BANK_FIELDS)
    path = tmp_path_factory.mktemp("profile") / "bank.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_profile(path)


def document(fields: dict[str, str | None], **changes: object) -> Document:
    values = {**CLEAN, **fields}
    return Document(
        1,
        0,
        "invoice",
        1,
        1,
        fields=values,
        confidence={k: 0.9 for k in values},
        **changes,  # type: ignore[arg-type]
    )


def check(profile: Profile, fields: dict[str, str | None], **changes: object) -> Document:
    return DocumentChecker(profile, today=TODAY).check(document(fields, **changes))


def found(doc: Document) -> list[tuple[str, str | None]]:
    return [(c.code, c.field) for c in doc.review_codes]


def test_a_clean_document_passes_unchanged(profile: Profile) -> None:
    clean = document({})
    assert DocumentChecker(profile, today=TODAY).check(clean) is clean


def test_a_bad_inn_is_coded_on_its_field_with_low_confidence(profile: Profile) -> None:
    doc = check(profile, {"buyer_tax_id": "7736207544"})
    assert found(doc) == [("inn_invalid", "buyer_tax_id")]
    assert doc.needs_review
    assert doc.confidence["buyer_tax_id"] == CHECK_CONFIDENCE
    assert doc.confidence["seller_tax_id"] == 0.9
    assert doc.review_reasons == ["buyer_tax_id: INN 7736207544 fails the checksum"]


def test_a_foreign_tax_id_has_no_rule(profile: Profile) -> None:
    assert found(check(profile, {"seller_tax_id": "12-3456789", "buyer_tax_id": None})) == []
    assert found(check(profile, {"seller_tax_id": "DE123456789"})) == []


def test_the_extractors_inn_code_is_never_given_twice(profile: Profile) -> None:
    """The offline extractor drops a bad INN with its own code; a checked value that is
    still bad keeps exactly one."""
    dropped = ReviewCode("inn_invalid", "buyer_tax_id", {"value": "7736207544"})
    doc = check(profile, {"buyer_tax_id": None}, review_codes=[dropped], needs_review=True)
    assert doc.review_codes == [dropped]
    doc = check(profile, {"buyer_tax_id": "7736207544"}, review_codes=[dropped])
    assert found(doc) == [("inn_invalid", "buyer_tax_id")]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"buyer_tax_id": "7707083893"}, "buyer_tax_id"),
        ({"buyer_tax_id": "7707 083 893"}, "buyer_tax_id"),
        ({"buyer": "ПАО «Сбербанк»"}, "buyer"),
        ({"seller": "ООО Яндекс"}, "buyer"),
    ],
)
def test_seller_and_buyer_are_never_the_same(
    profile: Profile, fields: dict[str, str], field: str
) -> None:
    doc = check(profile, fields)
    assert found(doc) == [("same_party", field)]
    assert doc.confidence[field] == CHECK_CONFIDENCE


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ((TODAY + timedelta(days=1)).isoformat(), None),  # a time zone away
        ((TODAY + timedelta(days=2)).isoformat(), "date_future"),
        ("2035-01-01", "date_future"),
        ("2000-01-01", None),
        ("1999-12-31", "date_too_old"),
        ("1924-03-12", "date_too_old"),  # an OCR'd 2024
    ],
)
def test_dates_in_the_future_or_too_old(profile: Profile, value: str, code: str | None) -> None:
    # VAT left out: the rates of 1924 are not the point here
    doc = check(profile, {"date": value, "vat_amount": None})
    assert found(doc) == ([(code, "date")] if code else [])


def test_the_oldest_year_is_a_setting(profile: Profile) -> None:
    checker = DocumentChecker(profile, min_year=2020, today=TODAY)
    (code,) = checker.check(document({"date": "2019-05-01"})).review_codes
    assert code.words() == "date: 2019-05-01 is before 2020"
    assert code.words("ru") == "date: 2019-05-01 — раньше 2020 года"
    assert checker.check(document({"date": "2020-01-01"})).review_codes == []


def test_wrong_vat_is_coded_on_the_vat_field(profile: Profile) -> None:
    doc = check(profile, {"vat_amount": "18000.00"})
    assert found(doc) == [("vat_mismatch", "vat_amount")]
    assert doc.confidence["vat_amount"] == CHECK_CONFIDENCE


def test_a_fixed_value_loses_its_code_and_the_document_its_review(profile: Profile) -> None:
    checker = DocumentChecker(profile, today=TODAY)
    bad = checker.check(document({"amount": "128000.00"}))
    assert found(bad) == [("vat_mismatch", "vat_amount")]
    fixed = checker.check(
        Document(**{**bad.__dict__, "fields": {**bad.fields, "amount": "118000.00"}})
    )
    assert fixed.review_codes == [] and not fixed.needs_review
    # a reason from the reader stays, and so does the review
    other = ReviewCode("field_missing", "number")
    kept = checker.check(
        Document(
            **{
                **bad.__dict__,
                "fields": {**bad.fields, "amount": "118000.00"},
                "review_codes": [other, *bad.review_codes],
            }
        )
    )
    assert kept.review_codes == [other] and kept.needs_review


def test_the_without_vat_marker_comes_from_the_page_text(profile: Profile) -> None:
    doc = document({"vat_amount": "100.00", "amount": "600.00"})
    pages = [Page(1, 1, 100, 100, text="Счет № 1\nИтого: 600,00\nБез НДС"), Page(1, 2, 1, 1)]
    text = document_text(doc, pages)
    assert text.splitlines()[-1] == "Без НДС"
    checked = DocumentChecker(profile, today=TODAY).check(doc, text)
    assert found(checked) == [("vat_without", "vat_amount")]


# ------------------------------------------------------- a profile with bank details


def test_bank_detail_fields_are_a_valid_profile(bank_profile: Profile) -> None:
    kinds = {f.key: f.kind for f in bank_profile.fields}
    assert kinds["seller_bik"] == "bik" and kinds["seller_account"] == "account"


def test_published_bank_details_pass(bank_profile: Profile) -> None:
    assert found(check(bank_profile, BANK_VALUES)) == []


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("seller_kpp", "77360100", "kpp_invalid"),
        ("buyer_kpp", "77O401001", "kpp_invalid"),  # a letter O for a zero
        ("seller_ogrn", "1027700132196", "ogrn_invalid"),
        ("seller_ogrn", "102770013219", "ogrn_invalid"),
        ("seller_bik", "144525225", "bik_invalid"),
        ("seller_account", "40702810938000012346", "account_key_invalid"),
        ("seller_corr_account", "30101810400000000226", "account_key_invalid"),
    ],
)
def test_a_misread_bank_detail_is_coded(
    bank_profile: Profile, field: str, value: str, code: str
) -> None:
    doc = check(bank_profile, {**BANK_VALUES, field: value})
    assert found(doc) == [(code, field)]
    assert doc.confidence[field] == CHECK_CONFIDENCE
    assert doc.review_codes[0].words("ru")  # worded in both languages


def test_an_account_is_judged_against_its_own_bik(bank_profile: Profile) -> None:
    # Sberbank's accounts with the BIK of its St Petersburg branch
    wrong_bik = check(bank_profile, {**BANK_VALUES, "seller_bik": "044030653"})
    assert found(wrong_bik) == [
        ("account_key_invalid", "seller_account"),
        ("account_key_invalid", "seller_corr_account"),
    ]
    assert wrong_bik.review_codes[0].params["bik"] == "044030653"
    # no BIK, or a bad one, leaves nothing to hold the account to
    assert found(check(bank_profile, {**BANK_VALUES, "seller_bik": None})) == []


def test_the_readers_handle_bank_detail_fields(bank_profile: Profile) -> None:
    """The offline extractor leaves the new kinds empty (nothing to review); a Claude
    answer fills them and the checker judges what it says."""
    text = "Счет на оплату № 5 от 12.03.2024\nИтого к оплате: 1 200,00 руб."
    (offline,) = extract_documents(1, "a.pdf", [PageText(1, text)], bank_profile)
    assert all(offline.fields[f["key"]] is None for f in BANK_FIELDS)
    assert not any(c.field in BANK_VALUES for c in offline.review_codes)
    answer = {
        "documents": [
            {
                "page_from": 1,
                "page_to": 1,
                "continues_previous": False,
                "doc_type": "invoice",
                "fields": [
                    {"key": k, "found": True, "value": v, "confidence": 0.9}
                    for k, v in {**BANK_VALUES, "seller_bik": "044525224"}.items()
                ],
                "filename_fields": [],
                "handwritten_numbers": [],
            }
        ]
    }
    (raw,) = parse_answer(answer, [1], bank_profile)
    assert raw.fields["seller_kpp"] == "773601001"
    doc = Document(1, 0, "invoice", 1, 1, fields=raw.fields, confidence=raw.confidence)
    checked = DocumentChecker(bank_profile, today=TODAY).check(doc)
    assert ("bik_invalid", "seller_bik") not in found(checked)  # 04… and 9 digits: a form
    assert ("account_key_invalid", "seller_account") in found(checked)
