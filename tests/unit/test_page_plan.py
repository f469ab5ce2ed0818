"""The per-page request plan: the text layer's verdict, each page's kind, the small
image's size, and the forecast that follows the plan."""

from __future__ import annotations

import base64
import io
import json
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from docbatch_gui.config.page_plan import PagePlan, PlanMode
from docbatch_gui.config.profile import Profile, default_profile_path, load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.models import Page
from docbatch_gui.llm.caching import cache_control, cache_ttl
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.llm.pricing import EstimateBasis, PlannedRequest, estimate_cost, page_tokens
from docbatch_gui.llm.requests import PagePayload, build_request
from docbatch_gui.llm.thinking import ThinkingChoice
from docbatch_gui.pipeline.page_plan import (
    PageKind,
    TextLayer,
    image_cover,
    kind_of,
    page_kind,
    planned_size,
)
from docbatch_gui.pipeline.text_layer import judge_text_layer

INVOICE_TEXT = """Счет на оплату № 245 от 12.03.2024
Поставщик: ПАО Сбербанк, ИНН 7707083893, КПП 773601001, г. Москва, ул. Вавилова, д. 19
Покупатель: ООО «Яндекс», ИНН 7736207543, КПП 770401001, г. Москва, ул. Льва Толстого
Товары (работы, услуги): Услуги по договору поставки оборудования, 1 шт.
Итого: 118 000,00
В том числе НДС 20%: 19 666,67
Итого к оплате: 118 000,00 руб."""


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


def jpeg(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", size, 200).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def test_the_default_profile_plans_auto_with_a_small_image_for_its_image_tasks(
    profile: Profile,
) -> None:
    plan = profile.page_plan
    assert plan.mode is PlanMode.AUTO and plan.needs_image
    assert dict(plan.image_tasks).keys() == {"handwritten_numbers", "stamps"}
    assert plan.small_long_edge % 28 == 0  # whole patches of the token formula


def test_a_text_layer_is_judged_on_length_image_cover_and_readable_fields(
    profile: Profile,
) -> None:
    assert judge_text_layer(INVOICE_TEXT, 0.02, profile) is TextLayer.RELIABLE
    assert judge_text_layer("", 1.0, profile) is TextLayer.NONE
    assert judge_text_layer(INVOICE_TEXT, 0.97, profile) is TextLayer.IMAGES  # OCR'd scan
    assert judge_text_layer("Счет № 5", 0.0, profile) is TextLayer.SHORT
    garbage = "Ð¡Ñ‡ÐµÑ‚ Ð½Ð° Ð¾Ð¿Ð»Ð°Ñ‚Ñƒ Ð¾Ñ‚ Ð³Ð¾Ð´Ð° " * 12  # a broken font encoding
    assert judge_text_layer(garbage, 0.0, profile) is TextLayer.UNREADABLE


def test_each_mode_picks_the_pages_kind() -> None:
    auto = PagePlan(mode=PlanMode.AUTO, image_tasks=(("stamps", 672),))
    assert page_kind(auto, "reliable", "text", True) is PageKind.TEXT_SMALL_IMAGE
    no_tasks = auto.model_copy(update={"image_tasks": ()})
    assert page_kind(no_tasks, "reliable", "t", True) is PageKind.TEXT
    assert page_kind(auto, "images", "ocr text", True) is PageKind.IMAGE
    assert page_kind(auto, "", "not judged", True) is PageKind.IMAGE  # stored before plans
    assert page_kind(PagePlan(), "reliable", "text", True) is PageKind.IMAGE  # mode image
    text = PagePlan(mode=PlanMode.TEXT)
    assert page_kind(text, "none", "OCR text", True) is PageKind.TEXT
    assert page_kind(text, "none", "", True) is PageKind.IMAGE  # nothing else to read
    assert page_kind(auto, "reliable", "text", False) is PageKind.IMAGE  # no image to send


def test_a_page_whose_text_came_from_ocr_goes_as_an_image() -> None:
    plan = PagePlan(mode=PlanMode.AUTO)
    page = Page(1, 1, 902, 1275, "a" * 64, text="x", text_layer="reliable")
    assert kind_of(plan, page) is PageKind.TEXT
    assert kind_of(plan, replace(page, ocr_engine="tesseract")) is PageKind.IMAGE


@given(
    st.integers(min_value=28, max_value=2576),
    st.integers(min_value=1, max_value=2576),
    st.integers(min_value=1, max_value=2576),
)
def test_the_small_image_is_never_below_what_the_tasks_need(
    need: int, width: int, height: int
) -> None:
    """Its long edge is the largest any task needs, in whole 28-px patches; only a
    page smaller than that keeps its own size (it is never enlarged)."""
    tasks = (("handwritten_numbers", need), ("x", max(28, need // 2)))  # a plan as loaded
    plan = PagePlan(mode=PlanMode.AUTO, image_tasks=tasks)
    w, h = planned_size(plan, PageKind.TEXT_SMALL_IMAGE, width, height)
    assert max(w, h) >= min(need, max(width, height))
    assert max(w, h) <= max(width, height)
    assert max(w, h) < need + 28 or max(w, h) == max(width, height)


def test_the_small_image_sent_has_the_planned_size(profile: Profile) -> None:
    """The request carries the image at the size the plan (and the forecast) says."""
    pages = [
        PagePayload(1, jpeg((902, 1275)), INVOICE_TEXT, PageKind.TEXT_SMALL_IMAGE),
        PagePayload(2, jpeg((902, 1275)), "", PageKind.IMAGE),
        PagePayload(3, b"", INVOICE_TEXT, PageKind.TEXT),
    ]
    request = build_request(
        7, "mixed.pdf", 1, pages, profile, total_pages=3, model="claude-haiku-5-5",
        group_size=8, max_tokens=4000,
    )  # fmt: skip
    images = [b for b in request.params["messages"][0]["content"] if b["type"] == "image"]
    sizes = [Image.open(io.BytesIO(base64.b64decode(b["source"]["data"]))).size for b in images]
    need = max(edge for _task, edge in profile.page_plan.image_tasks)
    assert max(sizes[0]) >= need and sizes[0] == (594, 840)
    assert sizes[1] == (902, 1275)
    assert request.image_pixels == ((594, 840), (902, 1275), (0, 0))
    assert request.kinds == (PageKind.TEXT_SMALL_IMAGE, PageKind.IMAGE, PageKind.TEXT)
    texts = [b["text"] for b in request.params["messages"][0]["content"] if b["type"] == "text"]
    assert '<page index="1" source_page="1" kind="text+small_image">' in texts[1]
    assert '<page index="3" source_page="3" kind="text">' in texts[3]


def test_the_forecast_follows_the_plan(profile: Profile) -> None:
    """A born-digital page costs its text (and a small image), a scan its full image:
    the estimate sees the same kinds the requests are built with."""
    model = load_catalogue().model("claude-haiku-5-5")
    born = Page(1, 1, 902, 1275, "a" * 64, text=INVOICE_TEXT, text_layer="reliable")
    scan = Page(1, 2, 902, 1275, "b" * 64, text="", text_layer="none", image_cover=1.0)
    auto = PlannedRequest.of_pages([born, scan], profile.page_plan)
    image = PlannedRequest.of_pages([born, scan], PagePlan())
    assert auto.kinds == ["text+small_image", "image"] and image.kinds == ["image", "image"]
    assert auto.count(PageKind.IMAGE) == 1 and image.count(PageKind.IMAGE) == 2
    small, full = model.image_tokens(594, 840), model.image_tokens(902, 1275)
    assert (small, full) == (22 * 30, 33 * 46)  # ⌈w/28⌉·⌈h/28⌉
    assert page_tokens(model, image) - page_tokens(model, auto) == full - small
    text_only = PlannedRequest.of_pages([born], PagePlan(mode=PlanMode.AUTO))
    assert text_only.image_sizes == [(0, 0)]
    assert page_tokens(model, text_only) < 300


def test_the_batch_forecast_prices_the_one_hour_cache_write() -> None:
    catalogue = load_catalogue()
    choice = ThinkingChoice("claude-sonnet-5-5", "between_tools", "low", thinking_on=False)
    basis = EstimateBasis(2000)
    requests = [PlannedRequest([(902, 1275)], 600, 1)] * 3
    five = estimate_cost(catalogue, choice, basis, requests, batch=True, cache_ttl="5m")
    hour = estimate_cost(catalogue, choice, basis, requests, batch=True, cache_ttl="1h")
    none = estimate_cost(catalogue, choice, basis, requests, batch=True, cache_ttl=None)
    prices = catalogue.model("claude-sonnet-5-5").prices
    extra = 2000 * (prices.cache_write_1h - prices.cache_write_5m) / 1e6 * 0.5
    assert hour is not None and five is not None and none is not None
    assert hour - five == pytest.approx(extra, abs=1e-6)
    assert none > hour  # three requests: the cache already pays


def test_the_cache_lifetime_is_chosen_by_mode_model_and_prefix_length() -> None:
    catalogue = load_catalogue()
    sonnet, haiku = catalogue.model("claude-sonnet-5-5"), catalogue.model("claude-haiku-5-5")
    assert cache_ttl(sonnet, 2000, batch=True) == "1h"
    assert cache_ttl(sonnet, 2000, batch=False) == "5m"
    assert cache_ttl(haiku, 2000, batch=True) is None  # under Haiku 5.5's 4,096
    assert cache_ttl(replace(sonnet, cache_ttls=("5m",)), 2000, batch=True) == "5m"
    assert cache_control("1h") == {"type": "ephemeral", "ttl": "1h"}
    assert cache_control("5m") == {"type": "ephemeral"}  # the same bytes as before
    assert cache_control(None) is None


def test_a_profile_with_an_illegible_small_image_is_refused(tmp_path: Path) -> None:
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data["page_plan"]["image_tasks"] = {"stamps": 10}
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"image_tasks\.stamps"):
        load_profile(path)
    data["page_plan"]["mode"] = "images"
    data["page_plan"]["image_tasks"] = {}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"page_plan\.mode"):
        load_profile(path)


def test_image_cover_is_the_share_of_the_page_under_raster_images() -> None:
    """A scanned page (even with an invisible OCR text layer) is all picture; a logo
    covers a few percent; a rotated page is measured the same."""
    buffer = io.BytesIO()
    Image.new("L", (200, 280), 128).save(buffer, "PNG")
    picture = buffer.getvalue()
    document = pymupdf.open()
    scan = document.new_page(width=595, height=842)
    scan.insert_image(scan.rect, stream=picture)
    scan.insert_text((72, 72), "Счет на оплату № 245", render_mode=3)  # an OCR layer
    logo = document.new_page(width=595, height=842)
    logo.insert_image(pymupdf.Rect(40, 40, 140, 110), stream=picture)
    turned = document.new_page(width=595, height=842)
    turned.insert_image(turned.rect, stream=picture)
    turned.set_rotation(90)
    bare = document.new_page(width=595, height=842)
    covers = [image_cover(document[n]) for n in range(document.page_count)]
    assert covers[0] > 0.95 and covers[2] > 0.95  # (the picture keeps its proportions)
    assert 0 < covers[1] < 0.02
    assert covers[3] == 0.0 and not bare.get_images()
