<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru">
<context>
    <name>BatchModel</name>
    <message>
        <source>thinking off</source>
        <translation>размышления выкл.</translation>
    </message>
    <message>
        <source>thinking on</source>
        <translation>размышления вкл.</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>усилие авто</translation>
    </message>
    <message>
        <source>default</source>
        <translation>усилие по умолчанию</translation>
    </message>
    <message>
        <source>low</source>
        <translation>усилие низкое</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>усилие среднее</translation>
    </message>
    <message>
        <source>high</source>
        <translation>усилие высокое</translation>
    </message>
    <message>
        <source>very high</source>
        <translation>усилие очень высокое</translation>
    </message>
    <message>
        <source>maximum</source>
        <translation>усилие максимальное</translation>
    </message>
</context>
<context>
    <name>BatchStatus</name>
    <message>
        <source>Creating</source>
        <translation>Создаётся</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>Выполняется</translation>
    </message>
    <message>
        <source>Canceling</source>
        <translation>Отменяется</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>Завершён</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>Отменён</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Ошибка</translation>
    </message>
</context>
<context>
    <name>BatchTableModel</name>
    <message>
        <source>Batch</source>
        <translation>Пакет</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Статус</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Запросы</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Прогресс</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Прошло</translation>
    </message>
    <message>
        <source>Expires in</source>
        <translation>Истекает через</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Задания</translation>
    </message>
    <message>
        <source>Estimated</source>
        <translation>Оценка</translation>
    </message>
    <message>
        <source>Actual</source>
        <translation>Факт</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Модель</translation>
    </message>
    <message>
        <source>Cache hits</source>
        <translation>Из кэша</translation>
    </message>
    <message>
        <source>(being created)</source>
        <translation>(создаётся)</translation>
    </message>
    <message>
        <source>Local batch {0}</source>
        <translation>Локальный пакет {0}</translation>
    </message>
    <message>
        <source>The API ends a batch 24 hours after it was created; requests not finished by then expire and are sent again in a later batch.</source>
        <translation>API завершает пакет через 24 часа после создания; запросы, не выполненные к этому сроку, истекают и отправляются повторно в следующем пакете.</translation>
    </message>
    <message>
        <source>Estimated before sending, at batch prices</source>
        <translation>Оценка до отправки, по пакетным ценам</translation>
    </message>
    <message>
        <source>Known once the results are in</source>
        <translation>Станет известно после получения результатов</translation>
    </message>
    <message>
        <source>Includes {0} thinking tokens, billed as output</source>
        <translation>Включает {0} токенов размышлений (оплачиваются как ответ)</translation>
    </message>
    <message>
        <source>The model, effort and thinking these requests were sent with</source>
        <translation>Модель, уровень усилий и размышления, с которыми отправлены запросы</translation>
    </message>
    <message>
        <source>Share of the batch&apos;s prompt tokens read from the prompt cache (billed at a tenth of the input price); known once the results are in</source>
        <translation>Доля входных токенов пакета, прочитанных из кэша промпта (оплачиваются по десятой части цены ввода); известна, когда пришли результаты</translation>
    </message>
</context>
<context>
    <name>BatchesTab</name>
    <message>
        <source>This month: reading…</source>
        <translation>За месяц: загрузка…</translation>
    </message>
    <message>
        <source>Cancel batch…</source>
        <translation>Отменить пакет…</translation>
    </message>
    <message>
        <source>Cancel every unfinished job of the selected batch, then the batch</source>
        <translation>Отменить все незавершённые задания выбранного пакета, затем сам пакет</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Обновить</translation>
    </message>
    <message>
        <source>Copy batch ID</source>
        <translation>Копировать ID пакета</translation>
    </message>
    <message>
        <source>Budget: reading…</source>
        <translation>Бюджет: чтение…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sync mode&lt;/b&gt; — live</source>
        <translation>&lt;b&gt;Синхронный режим&lt;/b&gt; — в реальном времени</translation>
    </message>
    <message>
        <source>No batches yet</source>
        <translation>Пакетов пока нет</translation>
    </message>
    <message>
        <source>In batch mode, pages go to Claude through the Message Batches API: results arrive within 24 hours (usually much sooner) at half the price of sync mode.</source>
        <translation>В пакетном режиме страницы отправляются в Claude через Message Batches API: результаты приходят в течение 24 часов (обычно гораздо быстрее) за половину цены синхронного режима.</translation>
    </message>
    <message>
        <source>Choose &lt;i&gt;batch&lt;/i&gt; as the processing mode in Settings; the batches sent will appear here with their progress and cost.</source>
        <translation>Выберите &lt;i&gt;пакетный&lt;/i&gt; режим обработки в Настройках — отправленные пакеты появятся здесь вместе с прогрессом и стоимостью.</translation>
    </message>
    <message>
        <source>This month: &lt;b&gt;{0}&lt;/b&gt; pages · cost &lt;b&gt;{1}&lt;/b&gt; · saved &lt;b&gt;{2}&lt;/b&gt; against sync</source>
        <translation>За месяц: страниц &lt;b&gt;{0}&lt;/b&gt; · стоимость &lt;b&gt;{1}&lt;/b&gt; · экономия &lt;b&gt;{2}&lt;/b&gt; по сравнению с синхронным режимом</translation>
    </message>
    <message>
        <source>Jobs finished since {0}. Savings: what the same usage would have cost at sync prices ({1}), minus what it cost.</source>
        <translation>Задания, завершённые с {0}. Экономия: сколько тот же объём стоил бы по синхронным ценам ({1}), минус фактическая стоимость.</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>без ограничения</translation>
    </message>
    <message>
        <source>Budget {0}: spent &lt;b&gt;{1}&lt;/b&gt; · per month &lt;b&gt;{2}&lt;/b&gt; · left &lt;b&gt;{3}&lt;/b&gt; · per run &lt;b&gt;{4}&lt;/b&gt;</source>
        <translation>Бюджет {0}: потрачено &lt;b&gt;{1}&lt;/b&gt; · на месяц &lt;b&gt;{2}&lt;/b&gt; · осталось &lt;b&gt;{3}&lt;/b&gt; · на запуск &lt;b&gt;{4}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>a run is held by the budget (see the Queue tab)</source>
        <translation>запуск задержан бюджетом (см. вкладку «Очередь»)</translation>
    </message>
    <message>
        <source>Spent: the actual costs recorded this calendar month. The caps are set in Settings (0: no cap); a run whose forecast would cross one waits before anything is sent.</source>
        <translation>Потрачено: фактические расходы, записанные в этом календарном месяце. Ограничения задаются в настройках (0 — без ограничения); запуск, прогноз которого превысил бы одно из них, ждёт до отправки чего-либо.</translation>
    </message>
    <message>
        <source>In flight &lt;b&gt;{0}&lt;/b&gt; / {1}</source>
        <translation>В работе &lt;b&gt;{0}&lt;/b&gt; / {1}</translation>
    </message>
    <message>
        <source>Peak this session: {0}</source>
        <translation>Максимум за сеанс: {0}</translation>
    </message>
    <message>
        <source>Succeeded &lt;b style=&apos;color:#188038&apos;&gt;{0}&lt;/b&gt;</source>
        <translation>Успешно &lt;b style=&apos;color:#188038&apos;&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Failed &lt;b style=&apos;color:#d93025&apos;&gt;{0}&lt;/b&gt;</source>
        <translation>Ошибки &lt;b style=&apos;color:#d93025&apos;&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Retried &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>Повторы &lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Cancel batch</source>
        <translation>Отмена пакета</translation>
    </message>
    <message>
        <source>Cancel batch {0}? Its {1} unfinished job(s) are canceled; requests already answered are not refunded, the rest are not billed. Jobs shared with another batch are canceled there too.</source>
        <translation>Отменить пакет {0}? Его незавершённые задания ({1}) будут отменены; уже выполненные запросы не возвращаются, остальные не оплачиваются. Задания, общие с другим пакетом, отменяются и там.</translation>
    </message>
    <message>
        <source>Batch {0}: {1} job(s) canceled; the batch is canceled on the next poll.</source>
        <translation>Пакет {0}: отменено заданий: {1}; сам пакет будет отменён при следующем опросе.</translation>
    </message>
    <message>
        <source>Unexpected error: {0}</source>
        <translation>Непредвиденная ошибка: {0}</translation>
    </message>
    <message>
        <source>Could not cancel the batch: {0}</source>
        <translation>Не удалось отменить пакет: {0}</translation>
    </message>
</context>
<context>
    <name>BudgetBar</name>
    <message>
        <source>Raise the cap…</source>
        <translation>Поднять ограничение…</translation>
    </message>
    <message>
        <source>Run anyway</source>
        <translation>Запустить всё равно</translation>
    </message>
    <message>
        <source>Send this run as it is, whatever it costs; the caps stay as they are</source>
        <translation>Отправить этот запуск как есть, сколько бы он ни стоил; ограничения остаются прежними</translation>
    </message>
    <message>
        <source>Forecast for {0} queued file(s), {1} page(s), {2} ({3}): &lt;b&gt;${4}&lt;/b&gt; (${5} to ${6})</source>
        <translation>Прогноз для файлов в очереди: {0}, страниц: {1}, {2} ({3}): &lt;b&gt;${4}&lt;/b&gt; (от ${5} до ${6})</translation>
    </message>
    <message>
        <source>Before anything is sent: pages × request plan × model × mode × prompt cache, priced from the model catalogue. The range runs from short answers with a cache hit on every request to long answers with a cache miss on every request; pages not rendered yet are counted from the files.</source>
        <translation>До отправки: страницы × план запросов × модель × режим × кэш промпта, по ценам из каталога моделей. Диапазон — от коротких ответов с попаданием в кэш в каждом запросе до длинных ответов с промахом кэша в каждом запросе; ещё не отрисованные страницы посчитаны по файлам.</translation>
    </message>
    <message>
        <source>The held run goes ahead: {0} file(s), forecast ${1}.</source>
        <translation>Задержанный запуск продолжается: файлов {0}, прогноз ${1}.</translation>
    </message>
    <message>
        <source>Raise the budget cap</source>
        <translation>Поднять ограничение бюджета</translation>
    </message>
    <message>
        <source>Budget per run, USD:</source>
        <translation>Бюджет на запуск, USD:</translation>
    </message>
    <message>
        <source>Budget per month, USD:</source>
        <translation>Бюджет на месяц, USD:</translation>
    </message>
    <message>
        <source>The cap is set by the environment variable {0}: change it there, or run anyway.</source>
        <translation>Ограничение задано переменной окружения {0}: измените его там или запустите всё равно.</translation>
    </message>
    <message>
        <source>Budget cap raised to ${0}; the held run is checked again.</source>
        <translation>Ограничение бюджета поднято до ${0}; задержанный запуск проверяется снова.</translation>
    </message>
    <message>
        <source>Budget: {0}</source>
        <translation>Бюджет: {0}</translation>
    </message>
</context>
<context>
    <name>ConfidenceLegend</name>
    <message>
        <source>missing</source>
        <translation>нет</translation>
    </message>
    <message>
        <source>Missing: not found in the document</source>
        <translation>Нет: не найдено в документе</translation>
    </message>
    <message>
        <source>Unsure: read with a confidence under {0}%, or none given</source>
        <translation>Неуверенно: прочитано с уверенностью ниже {0}% или без оценки</translation>
    </message>
    <message>
        <source>sure</source>
        <translation>уверенно</translation>
    </message>
    <message>
        <source>Sure: confidence {0}% or more, or typed by a person</source>
        <translation>Уверенно: уверенность {0}% и выше или значение введено человеком</translation>
    </message>
    <message>
        <source>doubted</source>
        <translation>под сомнением</translation>
    </message>
    <message>
        <source>Doubted: a check (a checksum, the page, the seller&apos;s history) doubts the value; the ! says why</source>
        <translation>Под сомнением: проверка (контрольная сумма, страница, история продавца) сомневается в значении; «!» объясняет почему</translation>
    </message>
    <message>
        <source>unsure</source>
        <translation>неуверенно</translation>
    </message>
</context>
<context>
    <name>ConnectionTest</name>
    <message>
        <source>Test connection</source>
        <translation>Проверить подключение</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Подробности</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Проверка…</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Подключение…</translation>
    </message>
    <message>
        <source>{0} ({1:.2f} s)</source>
        <translation>{0} ({1:.2f} с)</translation>
    </message>
</context>
<context>
    <name>CounterpartyPanel</name>
    <message>
        <source>Known counterparty</source>
        <translation>Известный контрагент</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Название</translation>
    </message>
    <message>
        <source>Usual types</source>
        <translation>Обычные типы</translation>
    </message>
    <message>
        <source>VAT rate</source>
        <translation>Ставка НДС</translation>
    </message>
    <message>
        <source>Number format</source>
        <translation>Формат номера</translation>
    </message>
    <message>
        <source>Confirmed documents</source>
        <translation>Подтверждённых документов</translation>
    </message>
    <message>
        <source>Forget this counterparty…</source>
        <translation>Забыть этого контрагента…</translation>
    </message>
    <message>
        <source>Its next documents are checked as a new seller&apos;s; documents stay as they are</source>
        <translation>Его следующие документы проверяются как от нового продавца; сами документы не меняются</translation>
    </message>
    <message>
        <source>Known counterparty: INN {0}</source>
        <translation>Известный контрагент: ИНН {0}</translation>
    </message>
    <message>
        <source>Forget counterparty</source>
        <translation>Забыть контрагента</translation>
    </message>
    <message>
        <source>Forget what {0} confirmed document(s) taught about {1} (INN {2})? Its next documents are checked as a new seller&apos;s; the documents themselves stay.</source>
        <translation>Забыть то, что {0} подтверждённых документа(ов) сообщили о {1} (ИНН {2})? Его следующие документы будут проверяться как от нового продавца; сами документы останутся.</translation>
    </message>
</context>
<context>
    <name>DocumentPicker</name>
    <message>
        <source>Assign a document</source>
        <translation>Назначение документа</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Файл</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Страницы</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Тип</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>Номер</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Дата</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Сумма</translation>
    </message>
    <message>
        <source>Search number, file, date, amount…</source>
        <translation>Поиск по номеру, файлу, дате, сумме…</translation>
    </message>
</context>
<context>
    <name>Duration</name>
    <message>
        <source>{0} d {1} h</source>
        <translation>{0} д {1} ч</translation>
    </message>
    <message>
        <source>{0} h {1} min</source>
        <translation>{0} ч {1} мин</translation>
    </message>
    <message>
        <source>{0} min</source>
        <translation>{0} мин</translation>
    </message>
    <message>
        <source>&lt; 1 min</source>
        <translation>&lt; 1 мин</translation>
    </message>
</context>
<context>
    <name>ExportDocuments</name>
    <message>
        <source>There are no documents to export here.</source>
        <translation>Здесь нет документов для выгрузки.</translation>
    </message>
    <message>
        <source>Export documents</source>
        <translation>Выгрузка документов</translation>
    </message>
    <message>
        <source>Excel (*.xlsx);;CSV (*.csv);;JSON (*.json)</source>
        <translation>Excel (*.xlsx);;CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed: {0}</source>
        <translation>Выгрузка не удалась: {0}</translation>
    </message>
    <message>
        <source>{0} document(s) exported to {1}</source>
        <translation>Выгружено документов: {0} в {1}</translation>
    </message>
</context>
<context>
    <name>ExportDocumentsDialog</name>
    <message>
        <source>Export documents</source>
        <translation>Выгрузка документов</translation>
    </message>
    <message>
        <source>1C: load from a tabular document</source>
        <translation>1С: загрузка из табличного документа</translation>
    </message>
    <message>
        <source>All columns</source>
        <translation>Все столбцы</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Столбцы</translation>
    </message>
    <message>
        <source>All documents</source>
        <translation>Все документы</translation>
    </message>
    <message>
        <source>Checked (confirmed or needing no review)</source>
        <translation>Проверенные (подтверждённые или не требующие проверки)</translation>
    </message>
    <message>
        <source>Waiting for review</source>
        <translation>Ожидают проверки</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Документы</translation>
    </message>
    <message>
        <source>Headers in</source>
        <translation>Заголовки на языке</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>Выбрать файл…</translation>
    </message>
</context>
<context>
    <name>FieldEditor</name>
    <message>
        <source>Stored in the system keyring, never in the settings file.</source>
        <translation>Хранится в системном хранилище паролей, а не в файле настроек.</translation>
    </message>
    <message>
        <source>Environment variable: {0}
Allowed: {1}</source>
        <translation>Переменная окружения: {0}
Допустимо: {1}</translation>
    </message>
    <message>
        <source>one of {0}</source>
        <translation>одно из: {0}</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>«true» или «false»</translation>
    </message>
    <message>
        <source>a whole number from {0} to {1}</source>
        <translation>целое число от {0} до {1}</translation>
    </message>
    <message>
        <source>a number from {0} to {1}</source>
        <translation>число от {0} до {1}</translation>
    </message>
    <message>
        <source>a path</source>
        <translation>путь</translation>
    </message>
    <message>
        <source>text</source>
        <translation>текст</translation>
    </message>
    <message>
        <source>{0}, or empty</source>
        <translation>{0} или пусто</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Включено</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>не задано</translation>
    </message>
    <message>
        <source>not set: the embedded default is used</source>
        <translation>не задано: используется встроенное значение</translation>
    </message>
    <message>
        <source>password</source>
        <translation>пароль</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Обзор…</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>Выбор папки</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>Выбор файла</translation>
    </message>
    <message>
        <source>No system keyring on this computer: stored in an encrypted file ({0}), never in the settings file.</source>
        <translation>На этом компьютере нет системного хранилища ключей: хранится в зашифрованном файле ({0}), никогда не в файле настроек.</translation>
    </message>
    <message>
        <source>No keyring on this computer: it cannot be stored; set {0} in the environment.</source>
        <translation>На этом компьютере нет хранилища ключей: сохранить нельзя; задайте {0} в переменных окружения.</translation>
    </message>
    <message>
        <source>set (hidden)</source>
        <translation>задано (скрыто)</translation>
    </message>
    <message>
        <source>Set by the environment variable {0}; change it there.</source>
        <translation>Задано переменной окружения {0}; изменить значение можно только там.</translation>
    </message>
</context>
<context>
    <name>FilePage</name>
    <message>
        <source>File and sheet</source>
        <translation>Файл и лист</translation>
    </message>
    <message>
        <source>Choose the Excel registry (.xlsx, .xlsm) and the sheet that holds the list, or start from a saved template.</source>
        <translation>Выберите файл реестра Excel (.xlsx, .xlsm) и лист со списком или начните с сохранённого шаблона.</translation>
    </message>
    <message>
        <source>Type or paste a path, or choose a file</source>
        <translation>Введите или вставьте путь либо выберите файл</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>Выбрать файл…</translation>
    </message>
    <message>
        <source>Load template…</source>
        <translation>Загрузить шаблон…</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Файл</translation>
    </message>
    <message>
        <source>Sheet</source>
        <translation>Лист</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Название</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Шаблон</translation>
    </message>
    <message>
        <source>Registry file</source>
        <translation>Файл реестра</translation>
    </message>
    <message>
        <source>Excel (*.xlsx *.xlsm);;All files (*)</source>
        <translation>Файлы Excel (*.xlsx *.xlsm);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Registry template</source>
        <translation>Шаблон реестра</translation>
    </message>
    <message>
        <source>JSON (*.json);;All files (*)</source>
        <translation>Файлы JSON (*.json);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Loaded {0}</source>
        <translation>Загружено: {0}</translation>
    </message>
    <message>
        <source>No file at {0}: check the path.</source>
        <translation>Файла {0} нет: проверьте путь.</translation>
    </message>
    <message>
        <source>Reading the sheet…</source>
        <translation>Чтение листа…</translation>
    </message>
</context>
<context>
    <name>FilteredRowsDialog</name>
    <message>
        <source>Filtered rows</source>
        <translation>Отфильтрованные строки</translation>
    </message>
    <message>
        <source>Up to 50 filtered rows are kept with their reason. Change the filters on the page behind and the list follows.</source>
        <translation>Сохраняется до 50 отфильтрованных строк с причиной отбора. Измените фильтры на странице мастера — список обновится.</translation>
    </message>
</context>
<context>
    <name>FiltersPage</name>
    <message>
        <source>Filters</source>
        <translation>Фильтры</translation>
    </message>
    <message>
        <source>Rows that are not documents (totals, group headings, blank lines) are filtered. Check what is dropped below.</source>
        <translation>Строки, которые не являются документами (итоги, заголовки групп, пустые строки), отфильтровываются. Ниже можно проверить, что будет отброшено.</translation>
    </message>
    <message>
        <source>columns, e.g. A, B</source>
        <translation>столбцы, например A, B</translation>
    </message>
    <message>
        <source>words separated by ;</source>
        <translation>слова через ;</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(нет)</translation>
    </message>
    <message>
        <source>Fill down columns</source>
        <translation>Протягивать вниз столбцы</translation>
    </message>
    <message>
        <source>Skip rows containing</source>
        <translation>Пропускать строки со словами</translation>
    </message>
    <message>
        <source>Required column</source>
        <translation>Обязательный столбец</translation>
    </message>
    <message>
        <source>Minimum filled cells</source>
        <translation>Минимум заполненных ячеек</translation>
    </message>
    <message>
        <source>Open full list…</source>
        <translation>Открыть полный список…</translation>
    </message>
    <message>
        <source>Filtered rows</source>
        <translation>Отфильтрованные строки</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Строка</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Причина</translation>
    </message>
    <message>
        <source>Filtered rows: {0} shown of {1} (blank rows are counted, not listed)</source>
        <translation>Отфильтрованные строки: показано {0} из {1} (пустые строки учитываются, но не показываются)</translation>
    </message>
</context>
<context>
    <name>HeldBar</name>
    <message>
        <source>Add a key…</source>
        <translation>Добавить ключ…</translation>
    </message>
    <message>
        <source>Open Settings at the Anthropic API key</source>
        <translation>Открыть настройки на ключе API Anthropic</translation>
    </message>
    <message>
        <source>Process offline</source>
        <translation>Обработать офлайн</translation>
    </message>
    <message>
        <source>Read the held files with the offline extractor: nothing is sent to Claude</source>
        <translation>Прочитать задержанные файлы офлайн-извлекателем: в Claude ничего не отправляется</translation>
    </message>
    <message>
        <source>{0} queued job(s) held: they are to be read by Claude, and no Anthropic API key is set. Nothing is sent and nothing is charged until you act.</source>
        <translation>Задержано заданий в очереди: {0}. Их должен прочитать Claude, а ключ API Anthropic не задан. Ничего не отправляется и не оплачивается, пока вы не решите.</translation>
    </message>
</context>
<context>
    <name>JobDetail</name>
    <message>
        <source>Select a job to see its pages and documents.</source>
        <translation>Выберите задание, чтобы увидеть его страницы и документы.</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Тип</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Страницы</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>Номер</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Дата</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Сумма</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Проверка</translation>
    </message>
    <message>
        <source>from the watched folder {0}</source>
        <translation>из отслеживаемой папки {0}</translation>
    </message>
    <message>
        <source>Held: {0}</source>
        <translation>Задержано: {0}</translation>
    </message>
    <message>
        <source>Add a key in Settings, or press Process offline above.</source>
        <translation>Добавьте ключ в настройках или нажмите «Обработать офлайн» выше.</translation>
    </message>
    <message>
        <source>Read by {0}: {1}</source>
        <translation>Прочитала модель {0}: {1}</translation>
    </message>
    <message>
        <source>sent to {0} ({1}): {2}</source>
        <translation>отправлено в {0} ({1}): {2}</translation>
    </message>
    <message>
        <source>answer kept: {0}</source>
        <translation>оставлен ответ: {0}</translation>
    </message>
    <message>
        <source>a key field missing</source>
        <translation>нет ключевого поля</translation>
    </message>
    <message>
        <source>unsure</source>
        <translation>неуверенно</translation>
    </message>
    <message>
        <source>a field check failed</source>
        <translation>поле не прошло проверку</translation>
    </message>
    <message>
        <source>contradicts the page</source>
        <translation>расходится со страницей</translation>
    </message>
    <message>
        <source>bad input</source>
        <translation>некорректный файл</translation>
    </message>
    <message>
        <source>temporary</source>
        <translation>временная ошибка</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>тайм-аут</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>критическая ошибка</translation>
    </message>
    <message>
        <source>Retrying will not help: fix or replace the file.</source>
        <translation>Повтор не поможет: исправьте или замените файл.</translation>
    </message>
    <message>
        <source>Retry it (Ctrl+R); it may pass next time.</source>
        <translation>Повторите (Ctrl+R): в следующий раз может пройти.</translation>
    </message>
    <message>
        <source>Retry it, or raise the time limits in Settings for files this large.</source>
        <translation>Повторите или увеличьте ограничения времени в настройках для таких больших файлов.</translation>
    </message>
    <message>
        <source>Fix the setting named above, then press Resume.</source>
        <translation>Исправьте названную выше настройку и нажмите «Продолжить».</translation>
    </message>
    <message>
        <source>Page {0}</source>
        <translation>Страница {0}</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>да</translation>
    </message>
</context>
<context>
    <name>JobEvents</name>
    <message>
        <source>running</source>
        <translation>идёт</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>на паузе</translation>
    </message>
    <message>
        <source>finishing the running jobs</source>
        <translation>завершает начатые задания</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>остановлена</translation>
    </message>
    <message>
        <source>Job {0} ({1}): {2}: {3}</source>
        <translation>Задание {0} ({1}): {2}: {3}</translation>
    </message>
    <message>
        <source>Job {0} ({1}): {2}</source>
        <translation>Задание {0} ({1}): {2}</translation>
    </message>
    <message>
        <source>Processing: {0}</source>
        <translation>Обработка: {0}</translation>
    </message>
    <message>
        <source>The queue stopped: {0}</source>
        <translation>Очередь остановлена: {0}</translation>
    </message>
</context>
<context>
    <name>JobState</name>
    <message>
        <source>Queued</source>
        <translation>В очереди</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>Подготовка</translation>
    </message>
    <message>
        <source>OCR</source>
        <translation>OCR</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>Извлечение</translation>
    </message>
    <message>
        <source>Submitted</source>
        <translation>Отправлено</translation>
    </message>
    <message>
        <source>In batch</source>
        <translation>В пакете</translation>
    </message>
    <message>
        <source>Building</source>
        <translation>Формирование</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Готово</translation>
    </message>
    <message>
        <source>Needs review</source>
        <translation>Требует проверки</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <source>Timed out</source>
        <translation>Время истекло</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>Отменено</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Дубликат</translation>
    </message>
</context>
<context>
    <name>JobTableModel</name>
    <message>
        <source>File</source>
        <translation>Файл</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Стр.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Состояние</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Прогресс</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Документы</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Стоимость</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <source>{0}: {1}
{2}: {3}</source>
        <translation>{0}: {1}
{2}: {3}</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>Задержано</translation>
    </message>
</context>
<context>
    <name>LinesGrid</name>
    <message>
        <source>Add row</source>
        <translation>Добавить строку</translation>
    </message>
    <message>
        <source>Delete rows</source>
        <translation>Удалить строки</translation>
    </message>
    <message>
        <source>Split row</source>
        <translation>Разделить строку</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Копировать</translation>
    </message>
    <message>
        <source>A new row below the current one (Insert)</source>
        <translation>Новая строка под текущей (Insert)</translation>
    </message>
    <message>
        <source>Delete the selected rows (Ctrl+Delete)</source>
        <translation>Удалить выбранные строки (Ctrl+Delete)</translation>
    </message>
    <message>
        <source>Part a row that holds two goods into two</source>
        <translation>Разделить строку, в которой два товара, на две</translation>
    </message>
    <message>
        <source>Copy the selected rows for Excel (Ctrl+C)</source>
        <translation>Копировать выбранные строки для Excel (Ctrl+C)</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>Строки</translation>
    </message>
    <message>
        <source>Lines ({0})</source>
        <translation>Строки ({0})</translation>
    </message>
    <message>
        <source>net</source>
        <translation>без НДС</translation>
    </message>
    <message>
        <source>VAT</source>
        <translation>НДС</translation>
    </message>
    <message>
        <source>total</source>
        <translation>всего</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}: {1}</translation>
    </message>
    <message>
        <source>{0}: {1} {2} {3} printed</source>
        <translation>{0}: {1} {2} {3} в документе</translation>
    </message>
    <message>
        <source>Rows&apos; sums — </source>
        <translation>Суммы строк — </translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message>
        <source>Time</source>
        <translation>Время</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Уровень</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Источник</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Сообщение</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>Отладка</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>Сведения</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Внимание</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Критично</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Окно</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>Приложение</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>Проверки</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>Командная строка</translation>
    </message>
    <message>
        <source>Coordination</source>
        <translation>Координация</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>Диагностика</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>Ядро</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>Обработка</translation>
    </message>
    <message>
        <source>Sending out</source>
        <translation>Отправка</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Страницы</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>Реестр</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Настройки</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Источники</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Хранилище</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Сеть</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Библиотека</translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message>
        <source>All levels</source>
        <translation>Все уровни</translation>
    </message>
    <message>
        <source>Info and above</source>
        <translation>Информация и выше</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>Предупреждения и ошибки</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>Только ошибки</translation>
    </message>
    <message>
        <source>Filter messages…</source>
        <translation>Фильтр сообщений…</translation>
    </message>
    <message>
        <source>Technical</source>
        <translation>Технические</translation>
    </message>
    <message>
        <source>Also show the log file&apos;s lines, in English</source>
        <translation>Показывать и строки файла журнала, на английском</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Копировать</translation>
    </message>
    <message>
        <source>Copy the selected lines, or every line shown</source>
        <translation>Копировать выделенные строки или все показанные</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Очистить</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Queue</source>
        <translation>Очередь</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Проверка</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Пакеты</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>Реестр</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Настройки</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Журнал</translation>
    </message>
    <message>
        <source>Offline: no Claude key — documents are read by the offline extractor</source>
        <translation>Офлайн: нет ключа Claude — документы читает офлайн-распознаватель</translation>
    </message>
    <message>
        <source>Set the Anthropic API key in Settings (Claude) to read documents with Claude.</source>
        <translation>Укажите ключ Anthropic API в настройках (Claude), чтобы документы читал Claude.</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Запуск…</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Файл</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Добавить файлы…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Добавить папку…</translation>
    </message>
    <message>
        <source>Import from Yandex.Disk…</source>
        <translation>Импорт с Яндекс.Диска…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Выход</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Вид</translation>
    </message>
    <message>
        <source>Needs review</source>
        <translation>Ожидают проверки</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Готов к работе</translation>
    </message>
    <message>
        <source>Settings saved: they apply when the running jobs finished.</source>
        <translation>Настройки сохранены: они вступят в силу, когда завершатся текущие задания.</translation>
    </message>
    <message>
        <source>Settings applied.</source>
        <translation>Настройки применены.</translation>
    </message>
    <message>
        <source>Run finished: {0} done, {1} to review, {2} failed.</source>
        <translation>Обработка завершена: готово {0}, на проверку {1}, с ошибкой {2}.</translation>
    </message>
    <message>
        <source>The queue stopped: {0}</source>
        <translation>Очередь остановлена: {0}</translation>
    </message>
    <message>
        <source>Fix the setting, then press Resume.</source>
        <translation>Исправьте настройку и нажмите «Продолжить».</translation>
    </message>
    <message>
        <source>Close DocBatch</source>
        <translation>Закрытие DocBatch</translation>
    </message>
    <message>
        <source>{0} job(s) are being processed. Wait for their running steps to finish, or leave them for the next start? Nothing is lost either way.</source>
        <translation>Заданий в обработке: {0}. Дождаться завершения выполняемых шагов или оставить их до следующего запуска? В любом случае ничего не потеряется.</translation>
    </message>
    <message>
        <source>Wait for running jobs</source>
        <translation>Дождаться выполняемых заданий</translation>
    </message>
    <message>
        <source>Quit now</source>
        <translation>Выйти сейчас</translation>
    </message>
    <message>
        <source>{0} ({1}, {2:.0%})</source>
        <translation>{0} ({1}, {2:.0%})</translation>
    </message>
    <message>
        <source>and {0} more</source>
        <translation>и ещё {0}</translation>
    </message>
    <message>
        <source>Waiting for the running steps of these jobs to finish:
{0}</source>
        <translation>Ждём, пока закончатся текущие шаги этих заданий:
{0}</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(нет)</translation>
    </message>
    <message>
        <source>Leave them</source>
        <translation>Не ждать</translation>
    </message>
</context>
<context>
    <name>MappingPage</name>
    <message>
        <source>Column mapping</source>
        <translation>Столбцы</translation>
    </message>
    <message>
        <source>Say which column holds each registry field. Each choice shows the column&apos;s header and sample values.</source>
        <translation>Укажите, в каком столбце находится каждое поле реестра. Для каждого варианта показаны заголовок столбца и примеры значений.</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>Номер</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Дата</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Сумма</translation>
    </message>
    <message>
        <source>Counterparty</source>
        <translation>Контрагент</translation>
    </message>
    <message>
        <source>Tax ID</source>
        <translation>ИНН</translation>
    </message>
    <message>
        <source>(not mapped)</source>
        <translation>(не выбран)</translation>
    </message>
</context>
<context>
    <name>MatchDetail</name>
    <message>
        <source>Column</source>
        <translation>Столбец</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Значение</translation>
    </message>
    <message>
        <source>Sub-rule</source>
        <translation>Условие</translation>
    </message>
    <message>
        <source>The rule&apos;s sub-rule: field and how it is compared</source>
        <translation>Условие правила: поле и способ сравнения</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>Реестр</translation>
    </message>
    <message>
        <source>The value in the registry row</source>
        <translation>Значение в строке реестра</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Документ</translation>
    </message>
    <message>
        <source>The value found in the document</source>
        <translation>Значение, найденное в документе</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Сходство</translation>
    </message>
    <message>
        <source>How similar the two values are</source>
        <translation>Насколько похожи два значения</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Вес</translation>
    </message>
    <message>
        <source>The sub-rule&apos;s share of the score</source>
        <translation>Доля условия в оценке</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Итог</translation>
    </message>
    <message>
        <source>✓ passed, ✗ failed, or the value is missing</source>
        <translation>✓ выполнено, ✗ не выполнено, или значения нет</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Стр.</translation>
    </message>
    <message>
        <source>The page of the file the document value stands on</source>
        <translation>Страница файла, на которой стоит значение документа</translation>
    </message>
    <message>
        <source>Assign document…</source>
        <translation>Назначить документ…</translation>
    </message>
    <message>
        <source>Unassign</source>
        <translation>Снять назначение</translation>
    </message>
    <message>
        <source>No manual changes to this row.</source>
        <translation>Ручных изменений в этой строке нет.</translation>
    </message>
    <message>
        <source>No document</source>
        <translation>Нет документа</translation>
    </message>
    <message>
        <source>Select a row to see its match explained.</source>
        <translation>Выберите строку, чтобы увидеть разбор сопоставления.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row {0}&lt;/b&gt; → {1}, p. {2}, {3} {4}: score &lt;b&gt;{5:.0%}&lt;/b&gt;{6}</source>
        <translation>&lt;b&gt;Строка {0}&lt;/b&gt; → {1}, стр. {2}, {3} {4}: оценка &lt;b&gt;{5:.0%}&lt;/b&gt;{6}</translation>
    </message>
    <message>
        <source> (rule “{0}”)</source>
        <translation> (правило «{0}»)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row {0}&lt;/b&gt;: no document scores above the threshold.</source>
        <translation>&lt;b&gt;Строка {0}&lt;/b&gt;: ни один документ не набрал оценку выше порога.</translation>
    </message>
    <message>
        <source>missing in {0}</source>
        <translation>нет значения: {0}</translation>
    </message>
    <message>
        <source>{0} compared with {1}; * required</source>
        <translation>{0} сравнивается с полем «{1}»; * — обязательное</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>стр. {0}</translation>
    </message>
    <message>
        <source>Runner-up: {0}, p. {1}, {2}: {3:.0%}</source>
        <translation>Второй кандидат: {0}, стр. {1}, {2}: {3:.0%}</translation>
    </message>
    <message>
        <source>No runner-up.</source>
        <translation>Второго кандидата нет.</translation>
    </message>
    <message>
        <source>the registry</source>
        <translation>реестре</translation>
    </message>
    <message>
        <source>the document</source>
        <translation>документе</translation>
    </message>
    <message>
        <source>both</source>
        <translation>обоих</translation>
    </message>
    <message>
        <source>No page image</source>
        <translation>Нет изображения страницы</translation>
    </message>
</context>
<context>
    <name>PageView</name>
    <message>
        <source>No page</source>
        <translation>Нет страницы</translation>
    </message>
    <message>
        <source>Previous page</source>
        <translation>Предыдущая страница</translation>
    </message>
    <message>
        <source>Next page</source>
        <translation>Следующая страница</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Уменьшить</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Увеличить</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>По ширине</translation>
    </message>
    <message>
        <source>Fit the width</source>
        <translation>Вписать по ширине</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Целиком</translation>
    </message>
    <message>
        <source>Fit the whole page</source>
        <translation>Вписать страницу целиком</translation>
    </message>
    <message>
        <source>Loading page {0}…</source>
        <translation>Загрузка страницы {0}…</translation>
    </message>
    <message>
        <source>Page {0} has no image.</source>
        <translation>У страницы {0} нет изображения.</translation>
    </message>
    <message>
        <source>Page {0} could not be rendered ({1}). Only its text layer was read: look at this page in the source file.</source>
        <translation>Страницу {0} не удалось отрисовать ({1}). Прочитан только её текстовый слой: посмотрите эту страницу в исходном файле.</translation>
    </message>
    <message>
        <source>Orientation uncertain on page {0}: it was kept as scanned. {1}</source>
        <translation>Ориентация страницы {0} под сомнением: она оставлена как отсканирована. {1}</translation>
    </message>
    <message>
        <source>Page {0} ({1} of {2})</source>
        <translation>Страница {0} ({1} из {2})</translation>
    </message>
</context>
<context>
    <name>Progress</name>
    <message>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>&amp;Папка:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>&amp;Тип файлов:</translation>
    </message>
    <message>
        <source>Save &amp;as:</source>
        <translation>Сохранить &amp;как:</translation>
    </message>
    <message>
        <source>Confirm Replace? </source>
        <translation>Заменить файл?</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 байт</translation>
    </message>
    <message>
        <source>%1 byte(s)</source>
        <translation>%1 байт</translation>
    </message>
</context>
<context>
    <name>Queue</name>
    <message>
        <source>and {0} more</source>
        <translation>и ещё {0}</translation>
    </message>
</context>
<context>
    <name>QueueActions</name>
    <message>
        <source>Cancel</source>
        <translation>Отменить</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Повторить</translation>
    </message>
    <message>
        <source>Process again</source>
        <translation>Обработать заново</translation>
    </message>
    <message>
        <source>Open source file</source>
        <translation>Открыть исходный файл</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>Показать в папке</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Удалить…</translation>
    </message>
    <message>
        <source>Export documents…</source>
        <translation>Выгрузить документы…</translation>
    </message>
    <message>
        <source>The selected jobs&apos; documents, or those of every job the filter shows</source>
        <translation>Документы выбранных заданий или всех заданий, которые показывает фильтр</translation>
    </message>
    <message>
        <source>The documents of the {0} selected job(s)</source>
        <translation>Документы выбранных заданий: {0}</translation>
    </message>
    <message>
        <source>The documents of the {0} job(s) shown</source>
        <translation>Документы показанных заданий: {0}</translation>
    </message>
    <message>
        <source>Retrying will not help: fix or replace the file, then Process again</source>
        <translation>Повтор не поможет: исправьте или замените файл, затем нажмите «Обработать снова»</translation>
    </message>
    <message>
        <source>Retry (Ctrl+R)</source>
        <translation>Повторить (Ctrl+R)</translation>
    </message>
    <message>
        <source>Process again?</source>
        <translation>Обработать заново?</translation>
    </message>
    <message>
        <source>{0}

Process {1} again?</source>
        <translation>{0}

Обработать {1} заново?</translation>
    </message>
    <message>
        <source>Delete {0} from the queue?</source>
        <translation>Удалить {0} из очереди?</translation>
    </message>
    <message>
        <source>Delete {0} files from the queue?</source>
        <translation>Удалить из очереди файлы ({0})?</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Удаление</translation>
    </message>
    <message>
        <source>Documents found in them: {0}.</source>
        <translation>Найдено в них документов: {0}.</translation>
    </message>
    <message>
        <source>Keep them for Review and registry matching, or delete them too: registry rows matched to a deleted document are matched again.</source>
        <translation>Оставить их для проверки и сверки с реестром или удалить вместе с заданиями? Строки реестра, сопоставленные с удалённым документом, будут сопоставлены заново.</translation>
    </message>
    <message>
        <source>Delete job and documents</source>
        <translation>Удалить задание и документы</translation>
    </message>
    <message>
        <source>Delete job, keep documents</source>
        <translation>Удалить задание, оставить документы</translation>
    </message>
    <message>
        <source>Delete job</source>
        <translation>Удалить задание</translation>
    </message>
    <message>
        <source>Jobs deleted: {0}; their documents were kept.</source>
        <translation>Удалено заданий: {0}; их документы сохранены.</translation>
    </message>
    <message>
        <source>Jobs deleted with their documents: {0}.</source>
        <translation>Удалено заданий вместе с документами: {0}.</translation>
    </message>
</context>
<context>
    <name>QueueFiles</name>
    <message>
        <source>{0} is no longer there: it was moved or deleted since it was added.</source>
        <translation>{0} больше нет на месте: файл перемещён или удалён после добавления.</translation>
    </message>
    <message>
        <source>No program on this computer opens {0}. Use Show in folder and open it from there, or install a viewer for this type of file.</source>
        <translation>На этом компьютере нет программы, которая открывает {0}. Нажмите «Показать в папке» и откройте файл оттуда или установите программу просмотра для файлов этого типа.</translation>
    </message>
    <message>
        <source>No file manager could be started; the file is in {0}</source>
        <translation>Не удалось запустить файловый менеджер; файл находится в {0}</translation>
    </message>
</context>
<context>
    <name>QueueIntake</name>
    <message>
        <source>Adding files…</source>
        <translation>Добавление файлов…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Остановить</translation>
    </message>
    <message>
        <source>Adding files</source>
        <translation>Добавление файлов</translation>
    </message>
    <message>
        <source>Drop files here or press Add files…</source>
        <translation>Перетащите файлы сюда или нажмите «Добавить файлы…»</translation>
    </message>
    <message>
        <source>No jobs match this filter.</source>
        <translation>Нет заданий, подходящих под фильтр.</translation>
    </message>
    <message>
        <source>Adding {0}…</source>
        <translation>Добавляется {0}…</translation>
    </message>
    <message>
        <source>Queued {0} file(s).</source>
        <translation>Поставлено в очередь файлов: {0}.</translation>
    </message>
    <message>
        <source>{0} already known: shown as duplicates (use Process again to reprocess).</source>
        <translation>Уже известных файлов: {0}; они показаны как дубликаты (чтобы обработать их снова, выберите «Обработать заново»).</translation>
    </message>
    <message>
        <source>{0} file(s) skipped, their type is not supported (PDF, TIFF, JPEG, PNG are): {1}.</source>
        <translation>Пропущено файлов: {0}, их тип не поддерживается (поддерживаются PDF, TIFF, JPEG, PNG): {1}.</translation>
    </message>
    <message>
        <source>{0} file(s) not read: {1}.</source>
        <translation>Не прочитано файлов: {0}: {1}.</translation>
    </message>
    <message>
        <source>Stopped by you; the rest was not added.</source>
        <translation>Остановлено вами; остальные файлы не добавлены.</translation>
    </message>
    <message>
        <source>Add files</source>
        <translation>Добавление файлов</translation>
    </message>
    <message>
        <source>Documents ({0});;All files (*)</source>
        <translation>Документы ({0});;Все файлы (*)</translation>
    </message>
    <message>
        <source>Add a folder</source>
        <translation>Добавление папки</translation>
    </message>
</context>
<context>
    <name>QueueTab</name>
    <message>
        <source>The worker is paused: no new job starts. Running steps finish.</source>
        <translation>Обработка приостановлена: новые задания не запускаются, начатые шаги завершаются.</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Добавить файлы…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Добавить папку…</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Все состояния</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>В работе</translation>
    </message>
    <message>
        <source>Failed or timed out</source>
        <translation>С ошибкой или по тайм-ауту</translation>
    </message>
    <message>
        <source>Any error</source>
        <translation>Любая ошибка</translation>
    </message>
    <message>
        <source>Bad input</source>
        <translation>Некорректный файл</translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation>Временная</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Тайм-аут</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Критическая</translation>
    </message>
    <message>
        <source>Search file names</source>
        <translation>Поиск по имени</translation>
    </message>
    <message>
        <source>{0} job(s) will be read offline.</source>
        <translation>Заданий будет прочитано офлайн: {0}.</translation>
    </message>
    <message>
        <source>{0} jobs · {1} done · {2} to review · {3} failed</source>
        <translation>Заданий: {0} · готово: {1} · проверить: {2} · ошибок: {3}</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Продолжить</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Пауза</translation>
    </message>
    <message>
        <source>Start new jobs again</source>
        <translation>Снова запускать новые задания</translation>
    </message>
    <message>
        <source>Start no new job</source>
        <translation>Не запускать новые задания</translation>
    </message>
</context>
<context>
    <name>Registry</name>
    <message>
        <source>Importing</source>
        <translation>Импорт</translation>
    </message>
    <message>
        <source>Imported, not searched</source>
        <translation>Импортирован, поиск не выполнялся</translation>
    </message>
    <message>
        <source>Searching</source>
        <translation>Поиск</translation>
    </message>
    <message>
        <source>Searched</source>
        <translation>Поиск выполнен</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <source>Sheet “{0}”: &lt;b&gt;{1}&lt;/b&gt; rows kept, &lt;b&gt;{2}&lt;/b&gt; filtered</source>
        <translation>Лист «{0}»: оставлено строк: &lt;b&gt;{1}&lt;/b&gt;, отфильтровано: &lt;b&gt;{2}&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>RegistryListModel</name>
    <message>
        <source>Name</source>
        <translation>Название</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Файл</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Статус</translation>
    </message>
    <message>
        <source>Rows kept</source>
        <translation>Оставлено строк</translation>
    </message>
    <message>
        <source>Filtered</source>
        <translation>Отфильтровано</translation>
    </message>
    <message>
        <source>Last search</source>
        <translation>Последний поиск</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Сопоставлено</translation>
    </message>
    <message>
        <source>never</source>
        <translation>не выполнялся</translation>
    </message>
</context>
<context>
    <name>RegistryTab</name>
    <message>
        <source>New registry…</source>
        <translation>Новый реестр…</translation>
    </message>
    <message>
        <source>Open results</source>
        <translation>Открыть результаты</translation>
    </message>
    <message>
        <source>Search again</source>
        <translation>Повторить поиск</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Экспорт…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Удалить</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No registry yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;A registry is an Excel list of documents that should exist, for example an auditor&apos;s list of invoices. Import it with &lt;b&gt;New registry…&lt;/b&gt;: say where the table is, which columns hold the number, date and amount, and DocBatch finds the document for every row, shows the rows without one and the amounts that disagree.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Реестров пока нет.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Реестр — это список документов в Excel, которые должны быть в наличии, например перечень счетов от аудитора. Импортируйте его кнопкой &lt;b&gt;Новый реестр…&lt;/b&gt;: укажите, где находится таблица и в каких столбцах номер, дата и сумма, — DocBatch найдёт документ для каждой строки, покажет строки без документа и расхождения в суммах.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Поиск</translation>
    </message>
    <message>
        <source>Searching “{0}”: {1} candidate pairs to score</source>
        <translation>Поиск по реестру «{0}»: пар-кандидатов для оценки: {1}</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>строк</translation>
    </message>
    <message>
        <source>Search canceled.</source>
        <translation>Поиск отменён.</translation>
    </message>
    <message>
        <source>{0}: {1} rows matched, {2} without a match.</source>
        <translation>{0}: сопоставлено строк: {1}, без совпадения: {2}.</translation>
    </message>
    <message>
        <source>Delete registry</source>
        <translation>Удаление реестра</translation>
    </message>
    <message>
        <source>Delete “{0}” with its rows, results and manual assignments? The Excel file itself is not touched.</source>
        <translation>Удалить реестр «{0}» вместе со строками, результатами и ручными назначениями? Сам файл Excel не изменится.</translation>
    </message>
</context>
<context>
    <name>RegistryWizard</name>
    <message>
        <source>New registry</source>
        <translation>Новый реестр</translation>
    </message>
    <message>
        <source>Save as template…</source>
        <translation>Сохранить как шаблон…</translation>
    </message>
    <message>
        <source>Save as template</source>
        <translation>Сохранение шаблона</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>Файлы JSON (*.json)</translation>
    </message>
    <message>
        <source>Template saved: {0}</source>
        <translation>Шаблон сохранён: {0}</translation>
    </message>
</context>
<context>
    <name>ResultsModel</name>
    <message>
        <source>Document file</source>
        <translation>Файл документа</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Тип</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Стр.</translation>
    </message>
    <message>
        <source>Doc. number</source>
        <translation>Номер док.</translation>
    </message>
    <message>
        <source>Doc. date</source>
        <translation>Дата док.</translation>
    </message>
    <message>
        <source>Doc. amount</source>
        <translation>Сумма док.</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Строка</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Оценка</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>устарело</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>нет совпадения</translation>
    </message>
</context>
<context>
    <name>ResultsView</name>
    <message>
        <source>All</source>
        <translation>Все</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Сопоставлены</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>Без совпадения</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Предупреждения</translation>
    </message>
    <message>
        <source>Ties</source>
        <translation>Равные оценки</translation>
    </message>
    <message>
        <source>Manual</source>
        <translation>Вручную</translation>
    </message>
    <message>
        <source>Unmatched documents…</source>
        <translation>Несопоставленные документы…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Экспорт…</translation>
    </message>
    <message>
        <source>{0}: {1} rows shown</source>
        <translation>{0}: показано строк: {1}</translation>
    </message>
    <message>
        <source>assigned document {0}</source>
        <translation>назначен документ {0}</translation>
    </message>
    <message>
        <source>unassigned</source>
        <translation>назначение снято</translation>
    </message>
    <message>
        <source> (was {0})</source>
        <translation> (ранее {0})</translation>
    </message>
    <message>
        <source>Row {0}: {1}</source>
        <translation>Строка {0}: {1}</translation>
    </message>
    <message>
        <source>Export registry</source>
        <translation>Экспорт реестра</translation>
    </message>
    <message>
        <source>Excel (*.xlsx)</source>
        <translation>Файлы Excel (*.xlsx)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Экспорт</translation>
    </message>
    <message>
        <source>Writing {0}…</source>
        <translation>Запись {0}…</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>строк</translation>
    </message>
    <message>
        <source>Export canceled.</source>
        <translation>Экспорт отменён.</translation>
    </message>
    <message>
        <source>Exported {0} rows to {1}</source>
        <translation>Экспортировано строк: {0}; файл: {1}</translation>
    </message>
</context>
<context>
    <name>ReviewForm</name>
    <message>
        <source>Document {0}</source>
        <translation>Документ {0}</translation>
    </message>
    <message>
        <source>Confirmed by {0} at {1}</source>
        <translation>Подтвердил(а) {0}, {1}</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>подтверждено</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>изменено</translation>
    </message>
    <message>
        <source>said it is not a duplicate of document</source>
        <translation>указал(а), что это не дубликат документа</translation>
    </message>
    <message>
        <source>type</source>
        <translation>тип</translation>
    </message>
    <message>
        <source>pages</source>
        <translation>страницы</translation>
    </message>
    <message>
        <source>Missing: not found in the document; type it from the page</source>
        <translation>Нет: не найдено в документе; введите со страницы</translation>
    </message>
    <message>
        <source>Sure: typed by a person</source>
        <translation>Уверенно: введено человеком</translation>
    </message>
    <message>
        <source>Unsure: the reader gave no confidence; compare it with the page</source>
        <translation>Неуверенно: распознавание не дало оценки; сверьте со страницей</translation>
    </message>
    <message>
        <source>Unsure: the reader is only {0:.0%} sure of this value; compare it with the page</source>
        <translation>Неуверенно: уверенность распознавания лишь {0:.0%}; сверьте со страницей</translation>
    </message>
    <message>
        <source>Sure: confidence {0:.0%}</source>
        <translation>Уверенно: уверенность {0:.0%}</translation>
    </message>
</context>
<context>
    <name>ReviewTab</name>
    <message>
        <source>Waiting for review</source>
        <translation>Ожидают проверки</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Страницы</translation>
    </message>
    <message>
        <source>Nothing is waiting for review.

Jobs whose documents need a person&apos;s check appear here. To correct a finished job, double-click it in the Queue.</source>
        <translation>Проверки ничего не ожидает.

Здесь появляются задания, документы которых должен проверить человек. Чтобы исправить завершённое задание, дважды щёлкните его в Очереди.</translation>
    </message>
    <message>
        <source>Export documents…</source>
        <translation>Выгрузить документы…</translation>
    </message>
    <message>
        <source>The selected job&apos;s documents, or all the jobs listed, to Excel, CSV or JSON</source>
        <translation>Документы выбранного задания или всех заданий списка — в Excel, CSV или JSON</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Документ</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Тип</translation>
    </message>
    <message>
        <source>No changes by a person yet.</source>
        <translation>Ручных изменений пока нет.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Сохранить</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>Подтвердить</translation>
    </message>
    <message>
        <source>Not a duplicate</source>
        <translation>Не дубликат</translation>
    </message>
    <message>
        <source>This is another document, not the one its reason names; never ask again</source>
        <translation>Это другой документ, не тот, что назван в причине; больше не спрашивать</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Назад</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Далее</translation>
    </message>
    <message>
        <source>PgDown/PgUp: next/previous document · Ctrl+Enter: confirm · F3: next empty field</source>
        <translation>PgDown/PgUp: следующий/предыдущий документ · Ctrl+Enter: подтвердить · F3: следующее пустое поле</translation>
    </message>
    <message>
        <source>History</source>
        <translation>История</translation>
    </message>
    <message>
        <source>Waiting for review ({0})</source>
        <translation>Ожидают проверки ({0})</translation>
    </message>
    <message>
        <source>Pages {0} now belong to no document: they are left out of exports and registry matches. Widen a document&apos;s pages to take them in.</source>
        <translation>Страницы {0} теперь не входят ни в один документ: они не попадут в выгрузки и сопоставления с реестром. Расширьте страницы документа, чтобы включить их.</translation>
    </message>
    <message>
        <source>The documents of the selected job</source>
        <translation>Документы выбранного задания</translation>
    </message>
    <message>
        <source>The documents of the {0} jobs listed</source>
        <translation>Документы заданий в списке: {0}</translation>
    </message>
    <message>
        <source>{0}: all documents confirmed, done.</source>
        <translation>{0}: все документы подтверждены, задание готово.</translation>
    </message>
</context>
<context>
    <name>RowsPage</name>
    <message>
        <source>Header and data rows</source>
        <translation>Строки</translation>
    </message>
    <message>
        <source>Rows are numbered as Excel shows them. Shaded rows are filtered; hover for the reason.</source>
        <translation>Строки пронумерованы так же, как в Excel. Затенённые строки отфильтрованы — наведите на них указатель, чтобы увидеть причину.</translation>
    </message>
    <message>
        <source>e.g. F=4, G=4 for headers on another row</source>
        <translation>например F=4, G=4, если заголовки в другой строке</translation>
    </message>
    <message>
        <source>Header row</source>
        <translation>Строка заголовков</translation>
    </message>
    <message>
        <source>First data row</source>
        <translation>Первая строка данных</translation>
    </message>
    <message>
        <source>Column header row overrides</source>
        <translation>Особые строки заголовков</translation>
    </message>
    <message>
        <source>column_header_row: “{0}” is not COLUMN=ROW</source>
        <translation>column_header_row: «{0}» не в формате СТОЛБЕЦ=СТРОКА</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Строка</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Статус</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>оставлена</translation>
    </message>
</context>
<context>
    <name>RulesPage</name>
    <message>
        <source>Matching rules</source>
        <translation>Правила</translation>
    </message>
    <message>
        <source>A row&apos;s score is the weighted sum of its sub-rules; the best rule counts. A required sub-rule must pass.</source>
        <translation>Оценка строки — взвешенная сумма её условий; учитывается лучшее правило. Обязательное условие должно выполняться.</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Правило</translation>
    </message>
    <message>
        <source>Registry field</source>
        <translation>Поле реестра</translation>
    </message>
    <message>
        <source>Document field</source>
        <translation>Поле документа</translation>
    </message>
    <message>
        <source>Comparator</source>
        <translation>Сравнение</translation>
    </message>
    <message>
        <source>Threshold / tolerance</source>
        <translation>Порог / допуск</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Вес</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>Обязательное</translation>
    </message>
    <message>
        <source>Add sub-rule</source>
        <translation>Добавить условие</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Удалить</translation>
    </message>
    <message>
        <source>Default rules</source>
        <translation>Правила по умолчанию</translation>
    </message>
    <message>
        <source>Match threshold</source>
        <translation>Порог совпадения</translation>
    </message>
    <message>
        <source> days</source>
        <translation> дн.</translation>
    </message>
    <message>
        <source>Counting candidate pairs…</source>
        <translation>Подсчёт пар-кандидатов…</translation>
    </message>
    <message>
        <source>These rules leave &lt;b&gt;{0}&lt;/b&gt; row–document pairs to compare in detail for {1} rows, out of {2} if every row were compared with every document.</source>
        <translation>Эти правила оставляют для подробного сравнения &lt;b&gt;{0}&lt;/b&gt; пар «строка — документ» для {1} строк из {2}, если сравнивать каждую строку с каждым документом.</translation>
    </message>
</context>
<context>
    <name>RunPage</name>
    <message>
        <source>Import and search</source>
        <translation>Импорт и поиск</translation>
    </message>
    <message>
        <source>The rows are imported, then matched to the documents. Both can be canceled; what was imported stays visible.</source>
        <translation>Сначала строки импортируются, затем сопоставляются с документами. Оба этапа можно отменить; импортированное останется видимым.</translation>
    </message>
    <message>
        <source>Force reimport</source>
        <translation>Импортировать заново</translation>
    </message>
    <message>
        <source>Replace the rows and the automatic search results; manual assignments stay audited.</source>
        <translation>Заменить строки и результаты автоматического поиска; ручные назначения остаются в журнале изменений.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Отменить</translation>
    </message>
    <message>
        <source>File: &lt;b&gt;{0}&lt;/b&gt;, sheet “{1}”: {2} rows to import, {3} filtered. Candidate pairs to score: {4}.</source>
        <translation>Файл: &lt;b&gt;{0}&lt;/b&gt;, лист «{1}»: строк к импорту: {2}, отфильтровано: {3}. Пар-кандидатов для оценки: {4}.</translation>
    </message>
    <message>
        <source>Canceling after the current chunk…</source>
        <translation>Отмена после текущей порции…</translation>
    </message>
    <message>
        <source>Importing: {0} rows</source>
        <translation>Импортировано строк: {0}</translation>
    </message>
    <message>
        <source>Searching: row {0} of {1}</source>
        <translation>Поиск: строка {0} из {1}</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>Импорт…</translation>
    </message>
    <message>
        <source>Counting candidate pairs…</source>
        <translation>Подсчёт пар-кандидатов…</translation>
    </message>
    <message>
        <source>Searching: {0} candidate pairs</source>
        <translation>Поиск (пар-кандидатов: {0})</translation>
    </message>
    <message>
        <source>Canceled. The registry keeps status “error” with the reason; run again to finish it.</source>
        <translation>Отменено. Реестр остаётся в статусе «Ошибка» с указанием причины; запустите снова, чтобы завершить.</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>Готово.</translation>
    </message>
    <message>
        <source>Canceled.</source>
        <translation>Отменено.</translation>
    </message>
    <message>
        <source>Not imported.</source>
        <translation>Не импортировано.</translation>
    </message>
    <message>
        <source>Failed.</source>
        <translation>Ошибка.</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; rows imported, {1} filtered.&lt;/p&gt;&lt;p&gt;&lt;b&gt;{2}&lt;/b&gt; rows matched, &lt;b&gt;{3}&lt;/b&gt; without a match, {4} with warnings, {5} assigned by hand; {6} candidate pairs scored.&lt;/p&gt;&lt;p&gt;Press Finish to open the results.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Импортировано строк: &lt;b&gt;{0}&lt;/b&gt;, отфильтровано: {1}.&lt;/p&gt;&lt;p&gt;Сопоставлено строк: &lt;b&gt;{2}&lt;/b&gt;, без совпадения: &lt;b&gt;{3}&lt;/b&gt;, с предупреждениями: {4}, назначено вручную: {5}; оценено пар-кандидатов: {6}.&lt;/p&gt;&lt;p&gt;Нажмите «Готово», чтобы открыть результаты.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>SettingValue</name>
    <message>
        <source>flagged as taken (and read)</source>
        <translation>помечено как взятое (и прочитанное)</translation>
    </message>
    <message>
        <source>moved to the folder below</source>
        <translation>перемещено в папку ниже</translation>
    </message>
    <message>
        <source>left as it is</source>
        <translation>оставлено как есть</translation>
    </message>
    <message>
        <source>TLS (IMAPS)</source>
        <translation>TLS (IMAPS)</translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation>STARTTLS</translation>
    </message>
    <message>
        <source>plain, unencrypted (password in the clear)</source>
        <translation>без шифрования (пароль открытым текстом)</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>офлайн</translation>
    </message>
    <message>
        <source>sync</source>
        <translation>синхронный</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>пакетный</translation>
    </message>
    <message>
        <source>json_schema</source>
        <translation>JSON-схема</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>вызов инструмента</translation>
    </message>
    <message>
        <source>google_vision</source>
        <translation>Google Vision</translation>
    </message>
    <message>
        <source>tesseract</source>
        <translation>Tesseract</translation>
    </message>
    <message>
        <source>none</source>
        <translation>нет</translation>
    </message>
    <message>
        <source>auto (cheapest the model allows)</source>
        <translation>авто (самое дешёвое, что допускает модель)</translation>
    </message>
    <message>
        <source>off</source>
        <translation>выкл.</translation>
    </message>
    <message>
        <source>on</source>
        <translation>вкл.</translation>
    </message>
    <message>
        <source>low</source>
        <translation>низкий</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>средний</translation>
    </message>
    <message>
        <source>high</source>
        <translation>высокий</translation>
    </message>
    <message>
        <source>very high</source>
        <translation>очень высокий</translation>
    </message>
    <message>
        <source>maximum</source>
        <translation>максимальный</translation>
    </message>
    <message>
        <source>in this program</source>
        <translation>в этой программе</translation>
    </message>
    <message>
        <source>Celery workers</source>
        <translation>на воркерах Celery</translation>
    </message>
    <message>
        <source>kept where it is</source>
        <translation>остаётся на месте</translation>
    </message>
    <message>
        <source>moved to processed/ or failed/</source>
        <translation>переносится в processed/ или failed/</translation>
    </message>
    <message>
        <source>the system&apos;s</source>
        <translation>как в системе</translation>
    </message>
    <message>
        <source>per million tokens</source>
        <translation>за миллион токенов</translation>
    </message>
    <message>
        <source>legacy</source>
        <translation>устаревшая</translation>
    </message>
</context>
<context>
    <name>SettingsTab</name>
    <message>
        <source>Saved to {0}. Environment variables take precedence and are shown read-only. Hover over a field to see its variable and allowed values.</source>
        <translation>Настройки сохраняются в {0}. Переменные окружения имеют приоритет и показаны только для чтения. Наведите указатель на поле, чтобы увидеть его переменную и допустимые значения.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <source>Put every field back to the saved value</source>
        <translation>Вернуть всем полям сохранённые значения</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Сохранить</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>Обработка</translation>
    </message>
    <message>
        <source>OCR</source>
        <translation>OCR</translation>
    </message>
    <message>
        <source>Claude</source>
        <translation>Claude</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Хранилище</translation>
    </message>
    <message>
        <source>MongoDB</source>
        <translation>MongoDB</translation>
    </message>
    <message>
        <source>MinIO</source>
        <translation>MinIO</translation>
    </message>
    <message>
        <source>Redis</source>
        <translation>Redis</translation>
    </message>
    <message>
        <source>Celery</source>
        <translation>Celery</translation>
    </message>
    <message>
        <source>Team execution</source>
        <translation>Работа в команде</translation>
    </message>
    <message>
        <source>Message Batches</source>
        <translation>Пакеты запросов</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Бюджет</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Проверка</translation>
    </message>
    <message>
        <source>Registry import</source>
        <translation>Импорт реестров</translation>
    </message>
    <message>
        <source>Documents in</source>
        <translation>Приём документов</translation>
    </message>
    <message>
        <source>Documents out</source>
        <translation>Выдача документов</translation>
    </message>
    <message>
        <source>Yandex.Disk</source>
        <translation>Яндекс.Диск</translation>
    </message>
    <message>
        <source>Mail</source>
        <translation>Почта</translation>
    </message>
    <message>
        <source>Documents in and out</source>
        <translation>Приём и выдача документов</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Прочее</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Папка данных</translation>
    </message>
    <message>
        <source>Processing mode</source>
        <translation>Режим обработки</translation>
    </message>
    <message>
        <source>OCR workers</source>
        <translation>Потоки OCR</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Размер пакета</translation>
    </message>
    <message>
        <source>Poll interval, s</source>
        <translation>Интервал опроса, с</translation>
    </message>
    <message>
        <source>Result workers</source>
        <translation>Потоки обработки результатов</translation>
    </message>
    <message>
        <source>Memory for running jobs, MB</source>
        <translation>Память для выполняемых заданий, МБ</translation>
    </message>
    <message>
        <source>Concurrent requests</source>
        <translation>Параллельные запросы</translation>
    </message>
    <message>
        <source>Pages per request</source>
        <translation>Страниц в запросе</translation>
    </message>
    <message>
        <source>Job timeout, s</source>
        <translation>Тайм-аут задания, с</translation>
    </message>
    <message>
        <source>Render workers</source>
        <translation>Потоки рендеринга</translation>
    </message>
    <message>
        <source>Largest file, MB</source>
        <translation>Макс. размер файла, МБ</translation>
    </message>
    <message>
        <source>Follow links out of added folders</source>
        <translation>Следовать ссылкам за пределы добавленных папок</translation>
    </message>
    <message>
        <source>Wait for a locked database, s</source>
        <translation>Ожидание занятой базы данных, с</translation>
    </message>
    <message>
        <source>Most pages per file</source>
        <translation>Макс. страниц в файле</translation>
    </message>
    <message>
        <source>JPEG quality</source>
        <translation>Качество JPEG</translation>
    </message>
    <message>
        <source>Documents dated before this year go to review</source>
        <translation>Документы, датированные раньше этого года, — на проверку</translation>
    </message>
    <message>
        <source>Render timeout per page, s</source>
        <translation>Время отрисовки одной страницы, с</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Модель</translation>
    </message>
    <message>
        <source>Request timeout, s</source>
        <translation>Тайм-аут запроса, с</translation>
    </message>
    <message>
        <source>SDK retries</source>
        <translation>Повторы в SDK</translation>
    </message>
    <message>
        <source>Output format</source>
        <translation>Формат ответа</translation>
    </message>
    <message>
        <source>Effort</source>
        <translation>Уровень усилий</translation>
    </message>
    <message>
        <source>Document profile (first and escalation models)</source>
        <translation>Профиль документов (первая и уточняющая модели)</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>Размышления</translation>
    </message>
    <message>
        <source>Max output tokens</source>
        <translation>Макс. токенов в ответе</translation>
    </message>
    <message>
        <source>Request retries</source>
        <translation>Повторы запроса</translation>
    </message>
    <message>
        <source>Confirmed documents kept per seller</source>
        <translation>Хранить подтверждённых документов продавца</translation>
    </message>
    <message>
        <source>Agreeing confirmations before a seller&apos;s usual values count</source>
        <translation>Согласных подтверждений, чтобы значения продавца считались обычными</translation>
    </message>
    <message>
        <source>Requests per batch</source>
        <translation>Запросов в пакете</translation>
    </message>
    <message>
        <source>Batch size limit, MB</source>
        <translation>Предельный размер пакета, МБ</translation>
    </message>
    <message>
        <source>Budget per run, USD (0: no cap)</source>
        <translation>Бюджет на запуск, USD (0 — без ограничения)</translation>
    </message>
    <message>
        <source>Budget per month, USD (0: no cap)</source>
        <translation>Бюджет на месяц, USD (0 — без ограничения)</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Движок</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>Языки</translation>
    </message>
    <message>
        <source>Command-line language</source>
        <translation>Язык командной строки</translation>
    </message>
    <message>
        <source>Timeout, s</source>
        <translation>Тайм-аут, с</translation>
    </message>
    <message>
        <source>OCR below this many characters</source>
        <translation>OCR, если в тексте меньше символов</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>Ключ API</translation>
    </message>
    <message>
        <source>API address</source>
        <translation>Адрес API</translation>
    </message>
    <message>
        <source>Connection URI</source>
        <translation>URI подключения</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Адрес сервера</translation>
    </message>
    <message>
        <source>Access key</source>
        <translation>Ключ доступа</translation>
    </message>
    <message>
        <source>Secret key</source>
        <translation>Секретный ключ</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>Бакет</translation>
    </message>
    <message>
        <source>Use HTTPS</source>
        <translation>Использовать HTTPS</translation>
    </message>
    <message>
        <source>Local cache, MB</source>
        <translation>Локальный кэш, МБ</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>Адрес (URL)</translation>
    </message>
    <message>
        <source>Broker URL</source>
        <translation>Адрес брокера</translation>
    </message>
    <message>
        <source>Run heavy tasks</source>
        <translation>Где выполнять тяжёлые задачи</translation>
    </message>
    <message>
        <source>Workload key lifetime, s</source>
        <translation>Срок жизни ключа нагрузки, с</translation>
    </message>
    <message>
        <source>Batch leader lock, s</source>
        <translation>Блокировка ведущего пакетного цикла, с</translation>
    </message>
    <message>
        <source>OAuth token</source>
        <translation>OAuth-токен</translation>
    </message>
    <message>
        <source>Credentials file</source>
        <translation>Файл учётных данных</translation>
    </message>
    <message>
        <source>Vision endpoint</source>
        <translation>Адрес сервера Vision</translation>
    </message>
    <message>
        <source>Most text kept per page, characters</source>
        <translation>Наибольший текст страницы, символов</translation>
    </message>
    <message>
        <source>Largest image, pixels</source>
        <translation>Наибольшее изображение, пикселей</translation>
    </message>
    <message>
        <source>Memory per processing child, MB</source>
        <translation>Память на дочерний процесс обработки, МБ</translation>
    </message>
    <message>
        <source>Registry: most rows</source>
        <translation>Реестр: наибольшее число строк</translation>
    </message>
    <message>
        <source>Registry: most columns</source>
        <translation>Реестр: наибольшее число столбцов</translation>
    </message>
    <message>
        <source>Registry: most characters per cell</source>
        <translation>Реестр: наибольшее число символов в ячейке</translation>
    </message>
    <message>
        <source>Shared folder for Celery tasks</source>
        <translation>Общая папка для задач Celery</translation>
    </message>
    <message>
        <source>Whole import within, s</source>
        <translation>Весь импорт не дольше, с</translation>
    </message>
    <message>
        <source>Most files per import</source>
        <translation>Наибольшее число файлов за импорт</translation>
    </message>
    <message>
        <source>Deepest folder level</source>
        <translation>Наибольшая глубина папок</translation>
    </message>
    <message>
        <source>IMAP server</source>
        <translation>Сервер IMAP</translation>
    </message>
    <message>
        <source>Port (0: the usual one)</source>
        <translation>Порт (0: обычный)</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Подключение</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Пользователь</translation>
    </message>
    <message>
        <source>Password or app token</source>
        <translation>Пароль или токен приложения</translation>
    </message>
    <message>
        <source>Trusted certificate authority (PEM)</source>
        <translation>Доверенный центр сертификации (PEM)</translation>
    </message>
    <message>
        <source>Folders to read (; between)</source>
        <translation>Папки для чтения (через ;)</translation>
    </message>
    <message>
        <source>After a message is taken</source>
        <translation>После того как письмо взято</translation>
    </message>
    <message>
        <source>Move taken messages to</source>
        <translation>Перемещать взятые письма в</translation>
    </message>
    <message>
        <source>A message without attachments becomes a PDF</source>
        <translation>Письмо без вложений становится PDF</translation>
    </message>
    <message>
        <source>Check the mailbox every, s</source>
        <translation>Проверять ящик каждые, с</translation>
    </message>
    <message>
        <source>Each server read within, s</source>
        <translation>Каждое чтение с сервера не дольше, с</translation>
    </message>
    <message>
        <source>Largest message, MB</source>
        <translation>Самое большое письмо, МБ</translation>
    </message>
    <message>
        <source>Largest attachment, MB</source>
        <translation>Самое большое вложение, МБ</translation>
    </message>
    <message>
        <source>Most attachments per message</source>
        <translation>Наибольшее число вложений в письме</translation>
    </message>
    <message>
        <source>Deepest forwarded message</source>
        <translation>Наибольшая глубина пересылки</translation>
    </message>
    <message>
        <source>Separator sheet barcode (empty: none)</source>
        <translation>Штрихкод листа-разделителя (пусто: нет)</translation>
    </message>
    <message>
        <source>Archive serial number barcode (regular expression)</source>
        <translation>Штрихкод архивного номера (регулярное выражение)</translation>
    </message>
    <message>
        <source>Watched folders (; between)</source>
        <translation>Отслеживаемые папки (через ;)</translation>
    </message>
    <message>
        <source>After intake, the original is</source>
        <translation>После приёма исходный файл</translation>
    </message>
    <message>
        <source>A file is complete after unchanged, s</source>
        <translation>Файл готов, если не меняется, с</translation>
    </message>
    <message>
        <source>List watched folders every, s</source>
        <translation>Просматривать папки каждые, с</translation>
    </message>
    <message>
        <source>Webhook URL</source>
        <translation>URL вебхука</translation>
    </message>
    <message>
        <source>Webhook signing secret</source>
        <translation>Секрет подписи вебхука</translation>
    </message>
    <message>
        <source>Webhook tries per delivery</source>
        <translation>Попыток доставки вебхука</translation>
    </message>
    <message>
        <source>Webhook timeout per try, s</source>
        <translation>Тайм-аут попытки вебхука, с</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>Интерфейс</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Как в системе</translation>
    </message>
    <message>
        <source>Stored in the application settings ({0})</source>
        <translation>Хранится в настройках приложения ({0})</translation>
    </message>
    <message>
        <source>A new language is applied the next time DocBatch starts.</source>
        <translation>Новый язык применится при следующем запуске DocBatch.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Язык</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s) need fixing before saving.</source>
        <translation>
            <numerusform>Перед сохранением нужно исправить %n значение.</numerusform>
            <numerusform>Перед сохранением нужно исправить %n значения.</numerusform>
            <numerusform>Перед сохранением нужно исправить %n значений.</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved. The engine takes them over as soon as no job is running.</source>
        <translation>Сохранено. Обработка перейдёт на новые настройки, как только не останется выполняемых заданий.</translation>
    </message>
    <message>
        <source>Not saved: {0}</source>
        <translation>Не сохранено: {0}</translation>
    </message>
</context>
<context>
    <name>UnmatchedDialog</name>
    <message>
        <source>Unmatched documents</source>
        <translation>Несопоставленные документы</translation>
    </message>
    <message>
        <source>Type / file</source>
        <translation>Тип / файл</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Страницы</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>Номер</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Дата</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Сумма</translation>
    </message>
    <message>
        <source>{0} documents are not matched to any registry row.</source>
        <translation>Документов, не сопоставленных ни с одной строкой реестра: {0}.</translation>
    </message>
    <message>
        <source>Every document is matched to a registry row.</source>
        <translation>Все документы сопоставлены со строками реестра.</translation>
    </message>
</context>
<context>
    <name>WatchStatus</name>
    <message>
        <source>Watching {0}; {1} cannot be reached</source>
        <translation>Отслеживаются {0}; недоступно: {1}</translation>
    </message>
    <message>
        <source>Watching {0}</source>
        <translation>Отслеживаются {0}</translation>
    </message>
</context>
<context>
    <name>YadiskDialog</name>
    <message>
        <source>Import from Yandex.Disk</source>
        <translation>Импорт с Яндекс.Диска</translation>
    </message>
    <message>
        <source>https://disk.yandex.ru/d/… or disk:/Scans</source>
        <translation>https://disk.yandex.ru/d/… или disk:/Сканы</translation>
    </message>
    <message>
        <source>stored in the system keyring</source>
        <translation>хранится в системном хранилище паролей</translation>
    </message>
    <message>
        <source>only for a disk:/ folder of your own</source>
        <translation>нужен только для своей папки disk:/</translation>
    </message>
    <message>
        <source>Remember the token in the system keyring</source>
        <translation>Запомнить токен в системном хранилище паролей</translation>
    </message>
    <message>
        <source>A public link needs no token. Every supported file below the folder is downloaded and queued; files already known are shown as duplicates.</source>
        <translation>Для публичной ссылки токен не нужен. Все поддерживаемые файлы из папки и её подпапок будут скачаны и поставлены в очередь; уже известные файлы будут показаны как дубликаты.</translation>
    </message>
    <message>
        <source>Link or folder</source>
        <translation>Ссылка или папка</translation>
    </message>
    <message>
        <source>OAuth token</source>
        <translation>OAuth-токен</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Импортировать</translation>
    </message>
</context>
<context>
    <name>YadiskImport</name>
    <message>
        <source>The token could not be stored in the system keyring; it is used for this import only.</source>
        <translation>Токен не удалось сохранить в системном хранилище паролей; он используется только для этого импорта.</translation>
    </message>
    <message>
        <source>Listing the folder on Yandex.Disk…</source>
        <translation>Получение списка файлов на Яндекс.Диске…</translation>
    </message>
    <message>
        <source>Import from Yandex.Disk</source>
        <translation>Импорт с Яндекс.Диска</translation>
    </message>
    <message>
        <source>Downloaded {0} of {1}: {2}</source>
        <translation>Скачано {0} из {1}: {2}</translation>
    </message>
    <message>
        <source>Yandex.Disk import canceled; nothing was queued.</source>
        <translation>Импорт с Яндекс.Диска отменён; в очередь ничего не добавлено.</translation>
    </message>
    <message>
        <source>Yandex.Disk import failed: {0}</source>
        <translation>Импорт с Яндекс.Диска не удался: {0}</translation>
    </message>
    <message>
        <source>Queued {0} file(s) from Yandex.Disk.</source>
        <translation>Поставлено в очередь файлов с Яндекс.Диска: {0}.</translation>
    </message>
    <message>
        <source>{0} already known: shown as duplicates.</source>
        <translation>Уже известно: {0}; показаны как дубликаты.</translation>
    </message>
</context>
</TS>
