"""The words of the registry: match warnings, why a row was filtered, what a sub-rule
compares, and why a workbook is refused.

code → {language: template}, as ``texts_jobs``. The English warning texts are what a
search result stores in ``warnings`` (the CLI's JSON and the "Ties" filter read them),
so they stay as they were.
"""

from __future__ import annotations

_RESAVE = (
    "The file may be truncated or damaged: open it in Excel and save it again as .xlsx, "
    "or download it again."
)
_RESAVE_RU = (
    "Файл может быть обрезан или повреждён: откройте его в Excel и сохраните снова как "
    ".xlsx или скачайте заново."
)

REGISTRY_TEXTS: dict[str, dict[str, str]] = {
    # what a search says about a row
    "match_no_candidates": {
        "en": "no candidates",
        "ru": "нет кандидатов",
    },
    "match_taken": {
        "en": "already matched to row {row}: document {document}",
        "ru": "уже сопоставлен со строкой {row}: документ {document}",
    },
    "match_below_threshold": {
        "en": "below threshold: best {best:.2f} < {threshold:.2f}",
        "ru": "ниже порога: лучшая оценка {best:.2f} < {threshold:.2f}",
    },
    "match_tie": {
        "en": "tie: document {document} scores {score:.2f} (best {best:.2f})",
        "ru": "ничья: документ {document} набирает {score:.2f} (лучший {best:.2f})",
    },
    "match_amount_differs": {
        "en": "amount differs: registry {registry}, document {document}",
        "ru": "сумма расходится: в реестре {registry}, в документе {document}",
    },
    "match_assigned_by_hand": {
        "en": "assigned by hand by {who}",
        "ru": "назначено вручную: {who}",
    },
    "match_unassigned_by_hand": {
        "en": "unassigned by hand by {who}",
        "ru": "назначение снято вручную: {who}",
    },
    "match_rematched": {
        "en": "document {document} (matched before) was deleted or replaced; matched again",
        "ru": "документ {document} (сопоставленный ранее) удалён или заменён; сопоставлено заново",
    },
    "match_reprocessed": {
        "en": "document {document} (matched before) was processed again; matched again",
        "ru": "документ {document} (сопоставленный ранее) обработан повторно; сопоставлено заново",
    },
    "match_reprocessed_manual": {
        "en": "document {document} (assigned by {who}) was processed again; matched again",
        "ru": "документ {document} (назначил {who}) обработан повторно; сопоставлено заново",
    },
    "match_rematched_manual": {
        "en": "document {document} (assigned by {who}) was deleted or replaced; matched again",
        "ru": "документ {document} (назначил {who}) удалён или заменён; сопоставлено заново",
    },
    # why the import left a row out
    "filter_empty_row": {
        "en": "empty row",
        "ru": "пустая строка",
    },
    "filter_skip_word": {
        "en": "contains {word!r}",
        "ru": "содержит «{word}»",
    },
    "filter_required_empty": {
        "en": "required column {column} is empty",
        "ru": "обязательный столбец {column} пуст",
    },
    "filter_too_few_cells": {
        "en": "{filled} filled cells, fewer than {minimum}",
        "ru": "заполнено ячеек: {filled}, меньше {minimum}",
    },
    "reason_empty_row": {"en": "Empty row", "ru": "Пустая строка"},
    "reason_skip_word": {"en": "Contains a skip word", "ru": "Содержит стоп-слово"},
    "reason_required_empty": {
        "en": "Required column is empty",
        "ru": "Пуст обязательный столбец",
    },
    "reason_too_few_cells": {"en": "Too few filled cells", "ru": "Мало заполненных ячеек"},
    # what a sub-rule compares, and how
    "comparator_exact": {"en": "exact match", "ru": "точное совпадение"},
    "comparator_fuzzy": {"en": "similar text", "ru": "похожий текст"},
    "comparator_number": {"en": "similar number", "ru": "похожий номер"},
    "comparator_date": {"en": "date ± days", "ru": "дата ± дни"},
    "comparator_amount": {"en": "amount ± tolerance", "ru": "сумма ± допуск"},
    "source_content": {
        "en": "{field} (from the document)",
        "ru": "{field} (из документа)",
    },
    "source_filename": {
        "en": "{field} (from the file name)",
        "ru": "{field} (из имени файла)",
    },
    "source_handwritten": {
        "en": "handwritten numbers",
        "ru": "рукописные номера",
    },
    # a workbook the importer refuses
    "xlsx_cannot_open": {
        "en": "{file}: cannot be opened ({reason})",
        "ru": "{file}: не открывается ({reason})",
    },
    "xlsx_password": {
        "en": "{file}: the workbook is password-protected. Open it in Excel, remove the "
        "password (File → Info → Protect Workbook → Encrypt with Password, clear it) and "
        "save it as .xlsx.",
        "ru": "{file}: книга защищена паролем. Откройте её в Excel, снимите пароль "
        "(Файл → Сведения → Защитить книгу → Зашифровать с использованием пароля, "
        "очистите поле) и сохраните как .xlsx.",
    },
    "xlsx_old_xls": {
        "en": "{file}: this is an old Excel 97-2003 .xls file. Open it in Excel and save it "
        "as .xlsx (File → Save As → Excel Workbook).",
        "ru": "{file}: это старый файл Excel 97-2003 (.xls). Откройте его в Excel и "
        "сохраните как .xlsx (Файл → Сохранить как → Книга Excel).",
    },
    "xlsx_damaged": {
        "en": "{file}: not a readable .xlsx workbook ({detail}). " + _RESAVE,
        "ru": "{file}: не читается как книга .xlsx ({detail}). " + _RESAVE_RU,
    },
    "xlsx_too_big": {
        "en": "{file}: unpacks to {size_mb:.0f} MB, more than the {max_mb:.0f} MB limit. "
        "Split the registry into smaller files or delete unused sheets.",
        "ru": "{file}: в распакованном виде {size_mb:.0f} МБ, больше предела {max_mb:.0f} "
        "МБ. Разделите реестр на файлы поменьше или удалите ненужные листы.",
    },
    "xlsx_zip_bomb": {
        "en": "{file}: member {member} claims a compression ratio of {ratio:.0f}:1, which "
        "no real workbook has (a zip bomb?). Re-save the file from Excel.",
        "ru": "{file}: часть {member} заявляет степень сжатия {ratio:.0f}:1, какой не "
        "бывает у настоящих книг (zip-бомба?). Пересохраните файл из Excel.",
    },
    "xlsx_no_sheets": {
        "en": "{file}: the workbook has no sheets",
        "ru": "{file}: в книге нет листов",
    },
    "xlsx_no_such_sheet": {
        "en": "{file}: there is no sheet named {sheet!r}; the sheets are: {sheets}. Fix "
        "the sheet name in the registry settings.",
        "ru": "{file}: нет листа «{sheet}»; листы: {sheets}. Исправьте имя листа в "
        "настройках реестра.",
    },
    "xlsx_chart_sheet": {
        "en": "{file}: sheet {sheet!r} is a chart sheet, not a table",
        "ru": "{file}: лист «{sheet}» — диаграмма, а не таблица",
    },
    "registry_too_many_rows": {
        "en": "{file}: sheet {sheet!r} has a row numbered {row:,}, past the limit of "
        "{max:,} rows (REGISTRY_MAX_ROWS; Excel's own is 1,048,576). Delete what lies "
        "past the registry, or split it into smaller files.",
        "ru": "{file}: на листе «{sheet}» есть строка с номером {row:,}, за пределом "
        "{max:,} строк (REGISTRY_MAX_ROWS; в самом Excel не больше 1 048 576). Удалите "
        "всё, что ниже реестра, или разделите его на файлы поменьше.",
    },
    "registry_too_many_columns": {
        "en": "{file}: sheet {sheet!r}, row {row}: a value in column {column} "
        "({count:,} columns), past the limit of {max:,} columns (REGISTRY_MAX_COLUMNS). "
        "Delete the columns past the registry, or raise REGISTRY_MAX_COLUMNS.",
        "ru": "{file}: лист «{sheet}», строка {row}: значение в столбце {column} "
        "({count:,} столбцов), за пределом {max:,} столбцов (REGISTRY_MAX_COLUMNS). "
        "Удалите столбцы справа от реестра или увеличьте REGISTRY_MAX_COLUMNS.",
    },
    "registry_cell_too_long": {
        "en": "{file}: sheet {sheet!r}, row {row}, column {column} holds {chars:,} "
        "characters of text, over the limit of {max:,} (REGISTRY_MAX_CELL_CHARS; Excel "
        "keeps at most 32,767 in a cell). Shorten the cell; the file may have been "
        "written to exhaust memory.",
        "ru": "{file}: лист «{sheet}», строка {row}, столбец {column}: {chars:,} символов "
        "текста, больше предела {max:,} (REGISTRY_MAX_CELL_CHARS; Excel хранит в ячейке "
        "не больше 32 767). Сократите ячейку; возможно, файл создан, чтобы исчерпать "
        "память.",
    },
    "sheet_empty": {
        "en": "{file}: sheet {sheet!r} is empty. Choose the sheet that holds the registry.",
        "ru": "{file}: лист «{sheet}» пуст. Выберите лист, на котором реестр.",
    },
    "header_beyond_end": {
        "en": "{file}: header row {header} is beyond the last row {last} of sheet "
        "{sheet!r}. Fix header_row / column_header_row in the settings.",
        "ru": "{file}: строка заголовка {header} за последней строкой {last} листа "
        "«{sheet}». Исправьте header_row / column_header_row в настройках.",
    },
    "registry_search_too_long": {
        "en": "registry search stopped after {limit} at row {done} of {total}: narrow the "
        "rules (more required sub-rules) or split the registry",
        "ru": "поиск по реестру остановлен через {limit} на строке {done} из {total}: "
        "сузьте правила (больше обязательных подправил) или разделите реестр",
    },
    # refusals of an import, an export or an assignment
    "registry_needs_force": {
        "en": "{file}: registry {registry} already has search results for {rows} rows; "
        "importing again replaces them. Re-import with --force (Force reimport in the "
        "wizard) to do so.",
        "ru": "{file}: у реестра {registry} уже есть результаты поиска для строк: {rows}; "
        "повторный импорт их заменит. Чтобы всё же импортировать, используйте --force "
        "(«Импортировать заново» в мастере).",
    },
    "registry_not_imported": {
        "en": "registry {registry} ({name}) is not fully imported ({state}); import it again, "
        "then export.",
        "ru": "реестр {registry} ({name}) импортирован не полностью ({state}); импортируйте "
        "его снова, затем экспортируйте.",
    },
    "registry_rows_short": {"en": "{rows} of {kept} rows", "ru": "строк: {rows} из {kept}"},
    "registry_status_importing": {"en": "importing", "ru": "импорт"},
    "registry_status_configured": {"en": "configured", "ru": "импортирован"},
    "registry_status_searching": {"en": "searching", "ru": "поиск"},
    "registry_status_searched": {"en": "searched", "ru": "поиск выполнен"},
    "registry_status_error": {"en": "error", "ru": "ошибка"},
    "registry_status_staging": {"en": "staging", "ru": "черновик импорта"},
    "registry_document_taken": {
        "en": "document {document} is already matched to row {row}; unassign it there first",
        "ru": "документ {document} уже сопоставлен со строкой {row}; сначала снимите его там",
    },
}
