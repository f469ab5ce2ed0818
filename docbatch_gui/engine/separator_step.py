"""Find a file's separator sheets on its rendered pages, before anything is sent
(``pipeline/separators.py`` says what a sheet is and what it does)."""

from __future__ import annotations

import asyncio

from docbatch_gui.domain.models import Job
from docbatch_gui.engine.steps import SEPARATE, WEIGHTS, JobContext
from docbatch_gui.pipeline.separators import (
    Split,
    moved_pages,
    page_barcodes,
    plan_split,
    recorded,
)


def split_of(job: Job) -> Split | None:
    return Split.from_dict(job.split)


def separator_pages(job: Job) -> frozenset[int]:
    split = split_of(job)
    return frozenset(split.separators) if split else frozenset()


class SeparateStep:
    """The separator sheets among the rendered pages, found before anything is sent."""

    name = SEPARATE
    weight = WEIGHTS[SEPARATE]

    async def run(self, ctx: JobContext, job: Job) -> Job:
        return await find_split(ctx, job)


async def find_split(ctx: JobContext, job: Job) -> Job:
    """The job with its split recorded (``Job.split``; None: no separator sheet).
    Off when SEPARATOR_VALUE is empty."""
    value = ctx.settings.separator_value
    if not value:
        return job
    # A page whose own text layer is reliable came from a program, not a scanner: no
    # sheet is ever on it, and a digital PDF costs nothing to look at (about a tenth
    # of a second per scanned page, bench/separators.py).
    every = ctx.store.list_pages(job.id)
    pages = [p for p in every if p.image_sha and p.text_layer != "reliable"]
    images = {p.page_no: ctx.blobs.read(p.image_sha) for p in pages if p.image_sha}

    def scan() -> dict[int, list[str]]:  # zxing-cpp is C++: off the event loop
        return {number: page_barcodes(image) for number, image in images.items()}

    codes = await asyncio.to_thread(scan) if images else {}
    moved = moved_pages(job.split)  # a person took these sheets into documents
    split = plan_split(
        codes, [p.page_no for p in every], value, ctx.settings.asn_pattern, not_sheets=moved
    )
    kept = recorded(split, job.split)
    if kept == job.split:
        return job  # nothing new to write (the step's end is written next)
    return ctx.store.update_job(job.id, attempt=ctx.attempt, split=kept)
