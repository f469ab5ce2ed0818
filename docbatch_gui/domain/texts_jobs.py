"""The words of job errors: what intake, rendering, OCR and Claude say about a file.

code → {language: template}. The English template is the text ``Job.error`` stores,
so it stays what scripts and older versions read; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

_REDO = "Export or scan it to PDF, TIFF, JPEG or PNG and add it again."
_REDO_RU = "Экспортируйте или отсканируйте его в PDF, TIFF, JPEG или PNG и добавьте снова."
_FRESH = "Get a fresh copy from its source"
_FRESH_RU = "Возьмите свежую копию из источника"

JOB_TEXTS: dict[str, dict[str, str]] = {
    # what kind of failure it is (the CLI's job list says it before the error)
    "kind_retryable": {"en": "busy, will retry", "ru": "занято, будет повторено"},
    "kind_unsupported": {"en": "input not supported", "ru": "файл не подходит"},
    "kind_critical": {"en": "critical", "ru": "критично"},
    "kind_timeout": {"en": "timeout", "ru": "время вышло"},
    # intake: what is wrong with the file itself
    "intake_not_read": {
        "en": "{file}: not read: {problem}. Copy the document itself into the folder, or "
        "add it by its own path.",
        "ru": "{file}: не прочитан: {problem}. Скопируйте сам документ в папку или "
        "добавьте его по его собственному пути.",
    },
    "intake_missing": {
        "en": "{file}: the path does not exist ({path}). Check the path and add it again.",
        "ru": "{file}: такого пути нет ({path}). Проверьте путь и добавьте файл снова.",
    },
    "intake_not_file": {
        "en": "{file}: the path is not a regular file ({path}). Check the path and add it again.",
        "ru": "{file}: это не обычный файл ({path}). Проверьте путь и добавьте файл снова.",
    },
    "duplicate": {
        "en": "{file}: same content as job {job} ({original}); not processed again. Use "
        "--force (or Process again) to reprocess it.",
        "ru": "{file}: то же содержимое, что у задания {job} ({original}); повторно не "
        "обрабатывается. Чтобы обработать снова, используйте --force (или «Обработать "
        "снова»).",
    },
    "file_type": {
        "en": "{file}: file type '{type}' is not supported. " + _REDO,
        "ru": "{file}: тип файла «{type}» не поддерживается. " + _REDO_RU,
    },
    "file_no_extension": {
        "en": "{file}: file type 'no extension' is not supported. " + _REDO,
        "ru": "{file}: файл без расширения не поддерживается. " + _REDO_RU,
    },
    "file_empty": {
        "en": "{file}: the file is empty (0 bytes); the copy or download probably did not "
        "finish. Copy it again from its source and add it again.",
        "ru": "{file}: файл пуст (0 байт); вероятно, копирование или загрузка не "
        "завершились. Скопируйте его снова из источника и добавьте снова.",
    },
    "file_too_big": {
        "en": "{file}: the file is {size_mb:.0f} MB, over the limit of {max_mb:.0f} MB "
        "(MAX_FILE_MB). Split it into smaller files, or raise MAX_FILE_MB.",
        "ru": "{file}: файл занимает {size_mb:.0f} МБ, больше предела {max_mb:.0f} МБ "
        "(MAX_FILE_MB). Разделите его на файлы поменьше или увеличьте MAX_FILE_MB.",
    },
    "file_looks_like": {
        "en": "{file}: the extension says {expected} but it looks like {actual}. The file "
        "may be renamed or damaged. " + _REDO,
        "ru": "{file}: по расширению это {expected}, а по содержимому — {actual}. Файл мог "
        "быть переименован или повреждён. " + _REDO_RU,
    },
    "file_unrecognised": {
        "en": "{file}: the extension says {expected} but its content is not recognised. "
        "The file may be renamed or damaged. " + _REDO,
        "ru": "{file}: по расширению это {expected}, но содержимое не распознано. Файл мог "
        "быть переименован или повреждён. " + _REDO_RU,
    },
    # rendering
    "pdf_damaged": {
        "en": "{file}: the PDF is damaged: neither MuPDF nor qpdf can open it ({detail}). "
        + _FRESH
        + ", or re-save it with a PDF tool.",
        "ru": "{file}: PDF повреждён: его не открывают ни MuPDF, ни qpdf ({detail}). "
        + _FRESH_RU
        + " или пересохраните его программой для PDF.",
    },
    "pdf_truncated": {
        "en": "{file}: the PDF is truncated (the end of the file is missing; the copy or "
        "download did not finish). " + _FRESH + " and add it again.",
        "ru": "{file}: PDF обрезан (нет конца файла; копирование или загрузка не "
        "завершились). " + _FRESH_RU + " и добавьте снова.",
    },
    "pdf_password": {
        "en": "{file}: the PDF is password-protected. Remove the password (open it and "
        "print or save it as a new PDF) and add it again.",
        "ru": "{file}: PDF защищён паролем. Снимите пароль (откройте его и распечатайте "
        "или сохраните как новый PDF) и добавьте снова.",
    },
    "pdf_no_pages": {
        "en": "{file}: the PDF has no pages (it may be truncated or damaged). " + _FRESH + ".",
        "ru": "{file}: в PDF нет страниц (он может быть обрезан или повреждён). " + _FRESH_RU + ".",
    },
    "pdf_page_damaged": {
        "en": "{file}: page {page} is damaged and cannot be rendered ({detail}). "
        + _FRESH
        + ", or re-save it with a PDF tool.",
        "ru": "{file}: страница {page} повреждена и не отрисовывается ({detail}). "
        + _FRESH_RU
        + " или пересохраните его программой для PDF.",
    },
    "pdf_too_many_pages": {
        "en": "{file}: the PDF has {count} pages, over the limit of {max} (MAX_PAGES). "
        "Split it into smaller files, or raise MAX_PAGES.",
        "ru": "{file}: в PDF {count} стр., больше предела {max} (MAX_PAGES). Разделите его "
        "на файлы поменьше или увеличьте MAX_PAGES.",
    },
    "image_too_many_pages": {
        "en": "{file}: the image has {count} pages, over the limit of {max} (MAX_PAGES). "
        "Split it into smaller files, or raise MAX_PAGES.",
        "ru": "{file}: в изображении {count} стр., больше предела {max} (MAX_PAGES). "
        "Разделите его на файлы поменьше или увеличьте MAX_PAGES.",
    },
    "image_too_large": {
        "en": "{file}: the image is larger than {pixels:,} pixels (a possible decompression "
        "bomb). Scan or export it at a lower resolution (300 dpi is enough).",
        "ru": "{file}: изображение больше {pixels:,} пикселей (возможна «бомба» "
        "распаковки). Отсканируйте или экспортируйте его с меньшим разрешением "
        "(300 dpi достаточно).",
    },
    "image_damaged": {
        "en": "{file}: the image is damaged and cannot be read ({detail}). "
        + _FRESH
        + ", or re-save it with an image tool.",
        "ru": "{file}: изображение повреждено и не читается ({detail}). "
        + _FRESH_RU
        + " или пересохраните его графическим редактором.",
    },
    "image_page_damaged": {
        "en": "{file}: page {page} of the image is damaged ({detail}). "
        + _FRESH
        + ", or re-save it with an image tool.",
        "ru": "{file}: страница {page} изображения повреждена ({detail}). "
        + _FRESH_RU
        + " или пересохраните его графическим редактором.",
    },
    "render_out_of_memory": {
        "en": "{file}: ran out of memory while rendering; it will be retried when fewer "
        "files are in progress.",
        "ru": "{file}: не хватило памяти при отрисовке; файл будет обработан снова, когда "
        "в работе будет меньше файлов.",
    },
    "child_out_of_memory": {
        "en": "{file}: needed more memory than a processing child may take "
        "(CHILD_MEMORY_MB = {mb} MB) and was stopped; other files carry on. A genuine "
        "file this heavy needs a higher CHILD_MEMORY_MB; otherwise the file is built to "
        "exhaust memory (a decompression bomb): get a fresh copy from its source.",
        "ru": "{file}: потребовалось больше памяти, чем разрешено дочернему процессу "
        "обработки (CHILD_MEMORY_MB = {mb} МБ), обработка остановлена; остальные файлы "
        "обрабатываются дальше. Если файл настоящий и такой тяжёлый, увеличьте "
        "CHILD_MEMORY_MB; иначе файл создан, чтобы исчерпать память («бомба» "
        "распаковки): получите свежую копию из источника.",
    },
    "pdf_image_too_large": {
        "en": "{file}: page {page} holds an image of {width:,} × {height:,} pixels, over "
        "the limit of {pixels:,} pixels (MAX_IMAGE_PIXELS; a possible decompression "
        "bomb). It was not decoded. Re-scan or export the file at a lower resolution "
        "(300 dpi is enough), or raise MAX_IMAGE_PIXELS.",
        "ru": "{file}: на странице {page} изображение {width:,} × {height:,} пикселей, "
        "больше предела {pixels:,} пикселей (MAX_IMAGE_PIXELS; возможна «бомба» "
        "распаковки). Оно не распаковывалось. Отсканируйте или экспортируйте файл с "
        "меньшим разрешением (300 dpi достаточно) или увеличьте MAX_IMAGE_PIXELS.",
    },
    "render_unreadable": {
        "en": "{file}: could not be read ({error}). Re-save it as PDF and add it again.",
        "ru": "{file}: не читается ({error}). Пересохраните его как PDF и добавьте снова.",
    },
    "renderer_crashed": {
        "en": "{file}: the renderer stopped unexpectedly ({detail}). The file may be "
        "damaged: re-save it as PDF and add it again.",
        "ru": "{file}: отрисовка неожиданно остановилась ({detail}). Возможно, файл "
        "повреждён: пересохраните его как PDF и добавьте снова.",
    },
    "ocr_crashed": {
        "en": "{file}: the OCR process stopped unexpectedly ({detail}).",
        "ru": "{file}: процесс распознавания неожиданно остановился ({detail}).",
    },
    "extractor_crashed": {
        "en": "{file}: the offline extractor stopped unexpectedly ({detail}).",
        "ru": "{file}: офлайн-извлечение неожиданно остановилось ({detail}).",
    },
    "crashed_repeatedly": {
        "en": "{error} It happened {times} times on this file.",
        "ru": "{error} С этим файлом это случилось {times} раз(а).",
    },
    "stored_copy_damaged": {
        "en": "{file}: the stored copy is damaged, and {path} is gone or has changed since "
        "it was added. Add the file again.",
        "ru": "{file}: сохранённая копия повреждена, а {path} удалён или изменился после "
        "добавления. Добавьте файл снова.",
    },
    "stored_copy_unwritable": {
        "en": "{file}: the stored copy could not be written. Check that the data folder is "
        "writable and has free space, then retry.",
        "ru": "{file}: не удалось записать сохранённую копию. Проверьте, что в папку данных "
        "можно писать и в ней есть место, затем повторите.",
    },
    "stored_copy_missing": {
        "en": "{file}: the stored copy is missing, and {path} is gone or has changed since "
        "it was added. Add the file again.",
        "ru": "{file}: сохранённой копии нет, а {path} удалён или изменился после "
        "добавления. Добавьте файл снова.",
    },
    # OCR and the offline reader
    "ocr_failed": {
        "en": "{file}: OCR failed: {error}",
        "ru": "{file}: распознавание не удалось: {error}",
    },
    "ocr_timeout": {
        "en": "{file}: OCR took longer than JOB_TIMEOUT and was stopped at page {page} of "
        "{total} needing OCR; the pages read so far are kept. Raise JOB_TIMEOUT and retry.",
        "ru": "{file}: распознавание заняло больше JOB_TIMEOUT и остановлено на странице "
        "{page} из {total}; уже прочитанные страницы сохранены. Увеличьте JOB_TIMEOUT и "
        "повторите.",
    },
    "prepare_timeout": {
        "en": "{file}: preparation took longer than {limit} and was stopped while rendering "
        "{where}. {advice}",
        "ru": "{file}: подготовка заняла больше {limit} и остановлена при отрисовке "
        "{where}. {advice}",
    },
    "prepare_job_timeout": {"en": "JOB_TIMEOUT={seconds}s", "ru": "JOB_TIMEOUT={seconds} с"},
    "prepare_its_deadline": {"en": "its deadline", "ru": "отведённого времени"},
    "prepare_at_page": {
        "en": "page {page} of {total}",
        "ru": "страницы {page} из {total}",
    },
    "prepare_at_opening": {"en": "opening the file", "ru": "в самом начале, при открытии файла"},
    "prepare_advice_split": {
        "en": "Split the file, or raise JOB_TIMEOUT, then retry.",
        "ru": "Разделите файл или увеличьте JOB_TIMEOUT, затем повторите.",
    },
    "prepare_advice_one": {
        "en": "Page {pages} was skipped after PAGE_TIMEOUT: such pages are too complex for "
        "the renderer, so splitting the file would not help. Raise JOB_TIMEOUT or lower "
        "PAGE_TIMEOUT, then retry.",
        "ru": "Страница {pages} пропущена после PAGE_TIMEOUT: такие страницы слишком сложны "
        "для отрисовки, и разделение файла не поможет. Увеличьте JOB_TIMEOUT или уменьшите "
        "PAGE_TIMEOUT, затем повторите.",
    },
    "prepare_advice_skipped": {
        "en": "Pages {pages} were skipped after PAGE_TIMEOUT: such pages are too complex for "
        "the renderer, so splitting the file would not help. Raise JOB_TIMEOUT or lower "
        "PAGE_TIMEOUT, then retry.",
        "ru": "Страницы {pages} пропущены после PAGE_TIMEOUT: такие страницы слишком сложны "
        "для отрисовки, и разделение файла не поможет. Увеличьте JOB_TIMEOUT или уменьшите "
        "PAGE_TIMEOUT, затем повторите.",
    },
    "extract_timeout": {
        "en": "{file}: reading the documents out of its {pages} page(s) took longer than "
        "JOB_TIMEOUT and was stopped. Raise JOB_TIMEOUT and retry.",
        "ru": "{file}: чтение документов из {pages} стр. заняло больше JOB_TIMEOUT и "
        "остановлено. Увеличьте JOB_TIMEOUT и повторите.",
    },
    "tesseract_not_installed": {
        "en": "Tesseract OCR is not installed. Install it with: apt-get install tesseract-ocr "
        "tesseract-ocr-rus tesseract-ocr-eng (tesseract-ocr-osd as well, for page rotation), "
        "or choose another OCR engine.",
        "ru": "Tesseract OCR не установлен. Установите его: apt-get install tesseract-ocr "
        "tesseract-ocr-rus tesseract-ocr-eng (и tesseract-ocr-osd для поворота страниц) "
        "или выберите другой движок распознавания.",
    },
    "tesseract_no_language": {
        "en": "Tesseract has no data for {missing} (OCR_LANGUAGES={languages}). Install it "
        "with: apt-get install {packages}",
        "ru": "У Tesseract нет данных для {missing} (OCR_LANGUAGES={languages}). Установите "
        "их: apt-get install {packages}",
    },
    "ocr_language_missing": {
        "en": "Tesseract cannot read {missing}: it has no data for it. Installed are "
        "{installed}; use codes such as ru, en (or Tesseract's own names), or install the "
        "language's data for Tesseract.",
        "ru": "Tesseract не умеет читать {missing}: для этого языка нет данных. Установлены: "
        "{installed}; укажите коды вроде ru, en (или имена Tesseract) либо установите "
        "данные этого языка для Tesseract.",
    },
    # the worker
    "internal_error": {
        "en": "{file}: internal error ({error}). Retry it; if it fails again, report it "
        "with the log.",
        "ru": "{file}: внутренняя ошибка ({error}). Повторите; если ошибка повторится, "
        "сообщите о ней и приложите журнал.",
    },
    "extractor_internal_error": {
        "en": "{file}: internal error in the offline extractor ({error}). Retry it; if it "
        "fails again, report it.",
        "ru": "{file}: внутренняя ошибка офлайн-извлечения ({error}). Повторите; если "
        "ошибка повторится, сообщите о ней.",
    },
    "interrupted_repeatedly": {
        "en": "{file}: processing was interrupted {attempts} times while in {state}; the "
        "file may be what stops the worker. Check it, then retry.",
        "ru": "{file}: обработка прерывалась {attempts} раз(а) на этапе {state}; возможно, "
        "обработчик останавливает сам файл. Проверьте его, затем повторите.",
    },
    "canceled_by_operator": {
        "en": "canceled by the operator",
        "ru": "отменено оператором",
    },
    # the budget: a run held before anything of it was sent
    "budget_run_cap": {
        "en": "{files} file(s), {pages} page(s), held before sending: the forecast of "
        "${usd} (${low} to ${high}) is over the budget per run of ${cap}. Nothing was sent. "
        "Raise the budget per run (BUDGET_RUN_USD) in Settings, or run it anyway "
        "(docbatch process --over-budget, or Run anyway in the Queue tab).",
        "ru": "{files} файл(ов), {pages} стр., задержаны до отправки: прогноз ${usd} "
        "(от ${low} до ${high}) больше бюджета на запуск ${cap}. Ничего не отправлено. "
        "Поднимите бюджет на запуск (BUDGET_RUN_USD) в настройках или запустите всё равно "
        "(docbatch process --over-budget или «Запустить всё равно» на вкладке «Очередь»).",
    },
    "budget_month_cap": {
        "en": "{files} file(s), {pages} page(s), held before sending: ${spent} spent this "
        "month plus the forecast of ${usd} (${low} to ${high}) is over the monthly budget "
        "of ${cap}. Nothing was sent. Raise the budget per month (BUDGET_MONTH_USD) in "
        "Settings, or run it anyway (docbatch process --over-budget, or Run anyway in the "
        "Queue tab).",
        "ru": "{files} файл(ов), {pages} стр., задержаны до отправки: потрачено в этом "
        "месяце ${spent}, вместе с прогнозом ${usd} (от ${low} до ${high}) это больше "
        "бюджета на месяц ${cap}. Ничего не отправлено. Поднимите бюджет на месяц "
        "(BUDGET_MONTH_USD) в настройках или запустите всё равно (docbatch process "
        "--over-budget или «Запустить всё равно» на вкладке «Очередь»).",
    },
    # why a path found on intake is not read (``sources.local.refusal``)
    "refused_link_loop": {"en": "a symbolic link loop", "ru": "петля символических ссылок"},
    "refused_link_broken": {"en": "a broken symbolic link", "ru": "битая символическая ссылка"},
    "refused_system_file": {
        "en": "it leads to a system file ({target})",
        "ru": "ведёт к системному файлу ({target})",
    },
    "refused_unreadable": {
        "en": "it cannot be read ({error})",
        "ru": "не читается ({error})",
    },
    "refused_not_regular": {
        "en": "not a regular file (a pipe, socket or device)",
        "ru": "не обычный файл (канал, сокет или устройство)",
    },
    "refused_name_not_utf8": {
        "en": "its name is not valid UTF-8 ({name}); rename the file and add it again",
        "ru": "его имя не в кодировке UTF-8 ({name}); переименуйте файл и добавьте его снова",
    },
    "refused_link_out": {
        "en": "a symbolic link out of the folder ({target}); FOLLOW_SYMLINKS_OUT allows it",
        "ru": "символическая ссылка за пределы папки ({target}); это разрешает FOLLOW_SYMLINKS_OUT",
    },
    "batch_job_held": {
        "en": "job {job} is already in the planned batch {intent}; it is not planned twice",
        "ru": "задание {job} уже в запланированном пакете {intent}; дважды оно не планируется",
    },
    "batch_request_held": {
        "en": "request {request} waits in batch {batch} already; it is not sent twice",
        "ru": "запрос {request} уже ждёт в пакете {batch}; дважды он не отправляется",
    },
    "budget_store_busy": {
        "en": "the budget could not be checked: another process held the store's budget "
        "lease for {seconds} s; the request was not sent and is tried again",
        "ru": "бюджет не удалось проверить: другой процесс {seconds} с держал блокировку "
        "бюджета в хранилище; запрос не отправлен и будет повторён",
    },
}
