"""The SQLite schema, as numbered migrations: ``PRAGMA user_version`` says how many ran.

Append a migration to change the schema; never edit one that has shipped.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: jobs, pages, documents, events, settings
    """
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        file_name TEXT NOT NULL,
        source_path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        mode TEXT NOT NULL,
        state TEXT NOT NULL,
        phase TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        deadline TEXT,
        error_kind TEXT,
        error TEXT,
        termination_confirmed INTEGER,
        artifacts_deliverable INTEGER NOT NULL DEFAULT 0,
        duplicate_of INTEGER REFERENCES jobs(id),
        pages INTEGER,
        documents INTEGER NOT NULL DEFAULT 0,
        progress REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX jobs_state ON jobs(state);
    CREATE INDEX jobs_sha ON jobs(sha256);
    CREATE TABLE pages (
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        page_no INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        image_sha TEXT,
        thumb_sha TEXT,
        text TEXT NOT NULL DEFAULT '',
        deliverable INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, page_no)
    );
    CREATE TABLE documents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        doc_index INTEGER NOT NULL,
        doc_type TEXT NOT NULL,
        page_from INTEGER NOT NULL,
        page_to INTEGER NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (job_id, doc_index)
    );
    CREATE TABLE job_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        phase TEXT,
        attempt INTEGER NOT NULL,
        detail TEXT
    );
    CREATE INDEX job_events_job ON job_events(job_id);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: cost per job; one row per Claude request group with its usage and answer
    """
    ALTER TABLE jobs ADD COLUMN cost_estimate_usd REAL;
    ALTER TABLE jobs ADD COLUMN cost_actual_usd REAL;
    CREATE TABLE requests (
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        custom_id TEXT NOT NULL,
        group_no INTEGER NOT NULL,
        body TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (job_id, custom_id)
    );
    """,
    # 3: Message Batches, from intent to results
    """
    CREATE TABLE batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        batch_id TEXT UNIQUE,
        status TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX batches_status ON batches(status);
    """,
    # 4: OCR: per-page rotation and engine; the OCR cache by content, page and engine
    """
    ALTER TABLE pages ADD COLUMN rotation INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pages ADD COLUMN rotation_confidence REAL NOT NULL DEFAULT 0;
    ALTER TABLE pages ADD COLUMN ocr_engine TEXT;
    ALTER TABLE pages ADD COLUMN ocr_cached INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE ocr_cache (
        sha256 TEXT NOT NULL,
        page_no INTEGER NOT NULL,
        engine TEXT NOT NULL,
        text TEXT NOT NULL,
        rotation INTEGER NOT NULL,
        rotation_confidence REAL NOT NULL,
        PRIMARY KEY (sha256, page_no, engine)
    );
    """,
    # 5: registries: rows in three views, filtered samples, results, audit
    """
    CREATE TABLE registries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        source_file TEXT NOT NULL,
        config TEXT NOT NULL,
        status TEXT NOT NULL,
        task_error TEXT,
        stats TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX registries_source ON registries(source_file);
    CREATE TABLE registry_rows (
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        row_no INTEGER NOT NULL,
        raw_data TEXT NOT NULL,
        mapped_data TEXT NOT NULL,
        normalized TEXT NOT NULL,
        PRIMARY KEY (registry_id, row_no)
    ) WITHOUT ROWID;
    CREATE TABLE registry_filtered (
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        row_no INTEGER NOT NULL,
        reason TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (registry_id, row_no)
    );
    CREATE TABLE registry_results (
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        row_no INTEGER NOT NULL,
        document_id INTEGER,
        score REAL NOT NULL,
        manual INTEGER NOT NULL DEFAULT 0,
        body TEXT NOT NULL,
        PRIMARY KEY (registry_id, row_no)
    ) WITHOUT ROWID;
    CREATE TABLE registry_assignments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        registry_id INTEGER NOT NULL REFERENCES registries(id) ON DELETE CASCADE,
        row_no INTEGER NOT NULL,
        document_id INTEGER,
        previous_document_id INTEGER,
        who TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX registry_assignments_registry ON registry_assignments(registry_id);
    """,
    # 6: a page skipped by the renderer; the evidence behind a page's orientation
    """
    ALTER TABLE pages ADD COLUMN render_error TEXT NOT NULL DEFAULT '';
    ALTER TABLE pages ADD COLUMN orientation_note TEXT NOT NULL DEFAULT '';
    ALTER TABLE pages ADD COLUMN orientation_uncertain INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ocr_cache ADD COLUMN orientation_note TEXT NOT NULL DEFAULT '';
    ALTER TABLE ocr_cache ADD COLUMN orientation_uncertain INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: documents a person corrected, as they were before a reprocess replaced them
    """
    CREATE TABLE document_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        document_id INTEGER,
        at TEXT NOT NULL,
        reason TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX document_history_job ON document_history(job_id);
    """,
    # 8: who runs a registry's import or search (a dead owner is released at once)
    """
    ALTER TABLE registries ADD COLUMN task_owner TEXT;
    """,
    # 9: crashes of a job's own children (what counts against the file)
    """
    ALTER TABLE jobs ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0;
    """,
    # 10: what confirmed documents taught about their sellers, one row per document
    """
    CREATE TABLE counterparty_documents (
        document_id INTEGER PRIMARY KEY,
        inn TEXT NOT NULL,
        confirmed_at TEXT NOT NULL,
        fields TEXT,
        body TEXT NOT NULL
    );
    CREATE INDEX counterparty_documents_inn ON counterparty_documents(inn, confirmed_at);
    """,
    # 11: the message a job's error words (code and JSON parameters), for its language
    """
    ALTER TABLE jobs ADD COLUMN error_code TEXT;
    ALTER TABLE jobs ADD COLUMN error_params TEXT;
    """,
    # 12: a job deleted from the queue whose documents the operator kept
    """
    ALTER TABLE jobs ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    """,
    # 13: the blob of a page's words with their boxes (where each value stands)
    """
    ALTER TABLE pages ADD COLUMN words_sha TEXT;
    ALTER TABLE ocr_cache ADD COLUMN words_sha TEXT;
    """,
    # 14: the request plan's view of a page: its text layer's verdict, image cover
    """
    ALTER TABLE pages ADD COLUMN text_layer TEXT NOT NULL DEFAULT '';
    ALTER TABLE pages ADD COLUMN image_cover REAL NOT NULL DEFAULT 0;
    """,
    # 15: routing by difficulty: which models read a job, why it escalated, both costs
    """
    ALTER TABLE jobs ADD COLUMN first_model TEXT;
    ALTER TABLE jobs ADD COLUMN escalated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE jobs ADD COLUMN escalation_model TEXT;
    ALTER TABLE jobs ADD COLUMN escalation_reasons TEXT;
    ALTER TABLE jobs ADD COLUMN answered_by TEXT;
    ALTER TABLE jobs ADD COLUMN cost_first_usd REAL;
    ALTER TABLE jobs ADD COLUMN cost_escalation_usd REAL;
    """,
    # 16: the spend ledger: each actual cost when it was paid (the month's budget sums
    # it); what requests already cost is carried over at their last update
    """
    CREATE TABLE spend (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        usd REAL NOT NULL,
        job_id INTEGER,
        ref TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX spend_at ON spend(at);
    INSERT INTO spend (at, usd, job_id, ref)
        SELECT updated_at, json_extract(body, '$.cost_usd'), job_id, custom_id FROM requests
        WHERE json_extract(body, '$.cost_usd') > 0;
    """,
    # 17: the messages a page's skip reason and orientation note word (JSON: field ->
    # code and parameters), so the window words them in its language
    """
    ALTER TABLE pages ADD COLUMN said TEXT NOT NULL DEFAULT '';
    ALTER TABLE ocr_cache ADD COLUMN said TEXT NOT NULL DEFAULT '';
    """,
    # 18: a job belongs to at most one open batch intent (the primary key says so);
    # intents left open by an older version claim their jobs here
    """
    CREATE TABLE intent_jobs (
        job_id INTEGER PRIMARY KEY,
        batch INTEGER NOT NULL
    );
    CREATE INDEX intent_jobs_batch ON intent_jobs(batch);
    INSERT OR IGNORE INTO intent_jobs (job_id, batch)
        SELECT CAST(j.value AS INTEGER), b.id FROM batches b, json_each(b.body, '$.job_ids') j
        WHERE b.status = 'intent' ORDER BY b.id;
    """,
    # 19: budget reservations (a paid request's high-end estimate until its cost is in
    # the spend ledger) and what each admitted run has paid, shared by every process
    """
    CREATE TABLE reservations (
        key TEXT PRIMARY KEY,
        usd REAL NOT NULL,
        owner TEXT NOT NULL,
        run TEXT,
        at TEXT NOT NULL
    );
    CREATE TABLE run_spend (
        run TEXT PRIMARY KEY,
        usd REAL NOT NULL
    );
    """,
    # 20: how askew a scan was, straightened before OCR read it (degrees)
    """
    ALTER TABLE pages ADD COLUMN skew REAL NOT NULL DEFAULT 0;
    ALTER TABLE ocr_cache ADD COLUMN skew REAL NOT NULL DEFAULT 0;
    """,
    # 21: where a job's file came from (a mail message: folder, sender, subject, date),
    # the files kept beside it (an ЭДО package's signatures), where separator sheets
    # split it; the mail messages
    # already taken, by Message-ID (or the message's hash)
    """
    ALTER TABLE jobs ADD COLUMN origin TEXT;
    ALTER TABLE jobs ADD COLUMN attached TEXT;
    ALTER TABLE jobs ADD COLUMN split TEXT;
    CREATE TABLE mail_taken (
        key TEXT PRIMARY KEY,
        at TEXT NOT NULL,
        body TEXT NOT NULL
    );
    """,
    # 22: a page's and an OCR record's notes as their message: the code and the
    # parameters (JSON) beside the English text, as a job's error has them; what
    # migration 17 kept in ``said`` moves there, and ``said`` goes
    """
    ALTER TABLE pages ADD COLUMN render_error_code TEXT;
    ALTER TABLE pages ADD COLUMN render_error_params TEXT;
    ALTER TABLE pages ADD COLUMN orientation_note_code TEXT;
    ALTER TABLE pages ADD COLUMN orientation_note_params TEXT;
    ALTER TABLE ocr_cache ADD COLUMN orientation_note_code TEXT;
    ALTER TABLE ocr_cache ADD COLUMN orientation_note_params TEXT;
    UPDATE pages SET
        render_error_code = json_extract(said, '$.render_error.code'),
        render_error_params = json_extract(said, '$.render_error.params'),
        orientation_note_code = json_extract(said, '$.orientation_note.code'),
        orientation_note_params = json_extract(said, '$.orientation_note.params')
        WHERE said != '' AND json_valid(said);
    UPDATE ocr_cache SET
        orientation_note_code = json_extract(said, '$.orientation_note.code'),
        orientation_note_params = json_extract(said, '$.orientation_note.params')
        WHERE said != '' AND json_valid(said);
    ALTER TABLE pages DROP COLUMN said;
    ALTER TABLE ocr_cache DROP COLUMN said;
    """,
    # 23: a document's number and amount as one key (``checks.duplicates.match_key``;
    # "" when either is unread), so the likely-duplicate check reads the documents
    # sharing it, not the whole table; NULL until computed (rows written before this
    # migration are keyed when it runs, ``sqlite.SQLiteStore._migrate``)
    """
    ALTER TABLE documents ADD COLUMN match_key TEXT;
    CREATE INDEX documents_match_key ON documents(match_key);
    """,
    # 24: the blob of a text page's small image, made by the render child for the
    # request plan (``pipeline.small_image``); pages stored before have none
    """
    ALTER TABLE pages ADD COLUMN small_image_sha TEXT;
    """,
    # 25: a job's revision, one more at every write of its row: a run that waits for
    # its jobs reads these numbers and decodes again only the jobs whose number moved
    """
    ALTER TABLE jobs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    """,
    # 26: the attempts a job had when the operator last retried it or processed it
    # again; its automatic attempts count from there (rows before it: 0, from the start)
    """
    ALTER TABLE jobs ADD COLUMN retry_base INTEGER NOT NULL DEFAULT 0;
    """,
]
