"""Exporting documents, for the CLI and the window alike: which layouts there are,
what a selection holds, and the file written."""

from __future__ import annotations

import logging
from pathlib import Path

from docbatch_gui.checks.duplicates import without_duplicates
from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.outbound.documents import ExportOptions, export_documents, select
from docbatch_gui.outbound.layouts import Layout, find_layout, layouts, save_layout
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)


class DocumentExports:
    def __init__(self, store: Store, settings: Settings, profile: Profile) -> None:
        self.store = store
        self.profile = profile
        self.folder = settings.data_dir / "export_layouts"

    def layouts(self) -> dict[str, Layout]:
        return layouts(self.folder, self.profile)

    def layout(self, name: str) -> Layout:
        return find_layout(name, self.folder, self.profile)

    def save_layout(self, layout: Layout) -> Path:
        return save_layout(layout, self.folder, self.profile)

    def selection(self, options: ExportOptions) -> list[tuple[Job, Document]]:
        jobs = self.store.list_jobs(ids=list(options.job_ids) or None)
        documents = (
            [d for job_id in options.job_ids for d in self.store.list_documents(job_id)]
            if options.job_ids
            else self.store.list_documents()
        )
        # a likely duplicate is the document it names: exported once
        return select(jobs, without_duplicates(documents), options)

    def export(self, out: Path, layout: Layout, options: ExportOptions) -> int:
        """Write the documents ``options`` select; returns how many rows."""
        written = export_documents(out, self.selection(options), layout, self.profile, options)
        log.info("documents exported to %s (layout %s), rows: %d", out, layout.name, written)
        return written
