"""Wizard page 5: the matching rules, in words, and how much work they leave.

The rules start from the core's default rules for the mapping. Document fields and
comparators are shown in words ("Number (from the document)", "similar text") with
their keys behind them, and how many row–document pairs the rules leave to compare is
counted before anything is run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSignalBlocker, QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QStyleOptionComboBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.registry.latest import LatestRunner
from docbatch_gui._qt.registry.pages_setup import WizardPart
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui.i18n import _, ngettext, npgettext
from docbatch_gui.registry.config import DEFAULT_RULE, RegistryConfig, default_rules
from docbatch_gui.registry.words import comparator_words, document_field_words, rule_words

if TYPE_CHECKING:
    from docbatch_gui._qt.registry.wizard import RegistryWizard


COMPARATORS = ("number", "fuzzy", "exact", "date", "amount")


def select_key(combo: QComboBox, key: str) -> None:
    """Show the item of ``key`` (its words); a key the list lacks is shown as typed."""
    index = combo.findData(key)
    if index >= 0:
        combo.setCurrentIndex(index)
    else:
        combo.setCurrentText(key)


def rule_name(shown: str) -> str:
    """The rule's name in the configuration for what its cell shows: the rule DocBatch
    made is shown in the window's language («основное») and saved as ``default``."""
    text = shown.strip()
    return DEFAULT_RULE if not text or text == rule_words(DEFAULT_RULE) else text


def key_of(combo: QComboBox) -> str:
    """The key behind the words a combo shows; typed text is taken as a key."""
    text = combo.currentText().strip()
    index = combo.findText(text)
    if index >= 0 and combo.itemData(index) is not None:
        return str(combo.itemData(index))
    return text


#: comparator → (parameter key, minimum, maximum, decimals, default)
PARAMS: dict[str, tuple[str | None, float, float, int, float]] = {
    "exact": (None, 0, 0, 0, 0),
    "fuzzy": ("threshold", 0, 100, 0, 85),
    "number": ("threshold", 0, 100, 0, 85),
    "date": ("tolerance_days", 0, 3650, 0, 0),
    "amount": ("tolerance", 0, 1e12, 2, 0.01),
}
R_NAME, R_FIELD, R_DOC, R_CMP, R_PARAM, R_WEIGHT, R_REQUIRED = range(7)


class RulesPage(WizardPart):
    def __init__(self, wizard: RegistryWizard) -> None:
        super().__init__(wizard)
        self.setTitle(_("Matching rules"))
        self.setSubTitle(
            _(
                "A row's score is the weighted sum of its sub-rules; the "
                "best rule counts. A required sub-rule must pass."
            )
        )
        self.table = QTableWidget(0, 7)
        self.table.setHorizontalHeaderLabels(
            [
                _("Rule"),
                _("Registry field"),
                _("Document field"),
                _("Comparator"),
                _("Threshold / tolerance"),
                _("Weight"),
                _("Required"),
            ]
        )
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        # within a 1024-pixel wizard with every title whole; the choices' texts whole
        # too (fit_columns, as rows are added and the wizard resized)
        for col, width in enumerate((90, 110, 180, 140, 110, 70, 80)):
            self.table.setColumnWidth(col, max(width, header.sectionSizeHint(col)))
        # the viewport's own resize: the table's comes before its viewport is laid out
        self._viewport = self.table.viewport()
        self._viewport.installEventFilter(self)
        self.table.verticalHeader().setDefaultSectionSize(32)
        self.table.itemChanged.connect(lambda _i: self.rules_changed())
        add = QPushButton(_("Add sub-rule"))
        add.clicked.connect(lambda: self.add_subrule({}))
        remove = QPushButton(_("Remove"))
        remove.clicked.connect(self.remove_selected)
        defaults = QPushButton(_("Default rules"))
        defaults.clicked.connect(self.set_defaults)
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0, 1)
        self.threshold.setSingleStep(0.05)
        self.threshold.setValue(0.7)
        self.threshold.valueChanged.connect(lambda _v: self.rules_changed())
        self.pairs = QLabel()
        self.pairs.setStyleSheet("font-size: 11pt;")
        self.pairs.setWordWrap(True)  # a long sentence in Russian
        threshold = (QLabel(_("Match threshold")), self.threshold)
        buttons = filled(QHBoxLayout(), add, remove, defaults, STRETCH, *threshold)
        filled(QVBoxLayout(self), (self.table, 1), buttons, self.pairs, self.status)
        self.pair_count: int | None = None
        self.estimator = LatestRunner(self._estimate_job, self)
        self.estimator.ready.connect(self._pairs_ready)
        self.estimator.failed.connect(lambda m: self.pairs.setText(m))

    def doc_fields(self) -> list[str]:
        keys = list(self.owner.ctx.app.profile.field_keys)
        return [
            *(f"from_content.{k}" for k in keys),
            *(f"from_filename.{k}" for k in keys),
            "handwritten_numbers",
        ]

    def add_subrule(self, sub: dict[str, Any], rule: str = DEFAULT_RULE) -> None:
        row = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(row)
        self.table.setItem(row, R_NAME, QTableWidgetItem(rule_words(rule)))  # «основное»
        fields = list(self.owner.mapping_page.mapping()) or ["number"]
        if sub.get("field") and sub["field"] not in fields:
            # a template's rule loaded before its columns are known keeps its field
            fields.append(sub["field"])
        named = self.owner.mapping_page.labels
        field = QComboBox()
        for key in fields:
            field.addItem(named.get(key, key), key)
        select_key(field, sub.get("field") or fields[0])
        doc = QComboBox()
        doc.setEditable(True)  # a path the list does not offer may be typed
        language = interface_language()
        for path in self.doc_fields():
            words = document_field_words(path, self.owner.ctx.field_label, language)
            doc.addItem(words, path)
            doc.setItemData(doc.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
        select_key(doc, sub.get("document_field") or f"from_content.{key_of(field)}")
        comparator = QComboBox()
        for key in COMPARATORS:
            comparator.addItem(comparator_words(key, language), key)
        select_key(comparator, sub.get("comparator") or "exact")
        param = QDoubleSpinBox()
        weight = QDoubleSpinBox()
        weight.setRange(0.01, 100)
        weight.setSingleStep(0.05)
        weight.setValue(float(sub.get("weight", 1.0)))
        required = QCheckBox()
        required.setChecked(bool(sub.get("required")))
        holder = QWidget()  # centres the box in its cell
        filled(QHBoxLayout(holder), margins=0).addWidget(required, 0, Qt.AlignmentFlag.AlignCenter)
        for col, widget in (
            (R_FIELD, field),
            (R_DOC, doc),
            (R_CMP, comparator),
            (R_PARAM, param),
            (R_WEIGHT, weight),
            (R_REQUIRED, holder),
        ):
            self.table.setCellWidget(row, col, widget)
        self._param_for(param, key_of(comparator), sub)
        comparator.currentIndexChanged.connect(
            lambda _i, p=param, c=comparator: self._param_for(p, key_of(c), {})
        )
        changed: Callable[..., None] = lambda *_: self.rules_changed()  # noqa: E731
        for signal in (
            field.currentTextChanged,
            doc.currentTextChanged,
            param.valueChanged,
            weight.valueChanged,
            required.toggled,
        ):
            signal.connect(changed)
        self.table.blockSignals(False)
        self.rules_changed()

    def required_box(self, row: int) -> QCheckBox:
        box = self.table.cellWidget(row, R_REQUIRED).findChild(QCheckBox)
        assert isinstance(box, QCheckBox)
        return box

    def combo(self, row: int, col: int) -> QComboBox:
        """The field, document-field or comparator box ``add_subrule`` put in a cell."""
        box = self.table.cellWidget(row, col)
        assert isinstance(box, QComboBox)
        return box

    def spin(self, row: int, col: int) -> QDoubleSpinBox:
        """The parameter or weight box ``add_subrule`` put in a cell."""
        box = self.table.cellWidget(row, col)
        assert isinstance(box, QDoubleSpinBox)
        return box

    def _param_for(self, spin: QDoubleSpinBox, comparator: str, sub: dict[str, Any]) -> None:
        key, low, high, decimals, default = PARAMS[comparator]
        with QSignalBlocker(spin):
            spin.setDecimals(decimals)
            spin.setRange(low, high)
            spin.setEnabled(key is not None)
            spin.setSuffix({"threshold": " %", "tolerance_days": _(" days")}.get(key or "", ""))
            value = sub.get(key) if key else None
            spin.setValue(float(default if value is None else value))
        self.rules_changed()

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows or [self.table.rowCount() - 1]:
            if row >= 0:
                self.table.removeRow(row)
        self.rules_changed()

    def set_rules(self, rules: list[dict[str, Any]]) -> None:
        self.table.setRowCount(0)
        for rule in rules:
            for sub in rule["subrules"]:
                self.add_subrule(sub, rule["name"])

    def set_defaults(self) -> None:
        """The core's default rules for the current mapping."""
        self.set_rules(default_rules(list(self.owner.mapping_page.mapping())))

    def initializePage(self) -> None:
        mapped = set(self.owner.mapping_page.mapping())
        used = {key_of(self.combo(r, R_FIELD)) for r in range(self.table.rowCount())}
        if not self.table.rowCount() or not used <= mapped:
            self.set_defaults()  # first visit, or the mapping changed under the rules
        self.estimator.request(now=True)

    def part(self) -> dict[str, Any]:
        rules: dict[str, list[dict[str, Any]]] = {}
        for row in range(self.table.rowCount()):
            item = self.table.item(row, R_NAME)
            name = rule_name(item.text() if item else "")
            comparator = key_of(self.combo(row, R_CMP))
            sub: dict[str, Any] = {
                "field": key_of(self.combo(row, R_FIELD)),
                "document_field": key_of(self.combo(row, R_DOC)),
                "comparator": comparator,
                "weight": round(self.spin(row, R_WEIGHT).value(), 4),
                "required": self.required_box(row).isChecked(),
            }
            key = PARAMS[comparator][0]
            if key is not None:
                value = self.spin(row, R_PARAM).value()
                sub[key] = int(value) if key == "tolerance_days" else value
            rules.setdefault(name, []).append(sub)
        return {
            "rules": [{"name": n, "subrules": s} for n, s in rules.items()],
            "threshold": round(self.threshold.value(), 4),
        }

    def load(self, config: RegistryConfig) -> None:
        self.set_rules([r.model_dump(exclude_none=True) for r in config.rules])
        self.threshold.setValue(config.threshold)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self._viewport:
            self.fit_columns()
        return False

    def fit_columns(self) -> None:
        """The choices read whole ("Number (from the document)", "amount ± tolerance"
        were cut): each combo column as wide as its longest chosen text needs, the
        others as wide as their titles and values; room left goes to the document
        field, whose list has the longest texts."""
        header, table = self.table.horizontalHeader(), self.table
        widths = {}
        for col in range(table.columnCount()):
            needed = max(header.sectionSizeHint(col), 60)
            for row in range(table.rowCount()):
                widget = table.cellWidget(row, col)
                if isinstance(widget, QComboBox):
                    needed = max(needed, _combo_width(widget))
                elif widget is not None:
                    needed = max(needed, widget.sizeHint().width())
                elif (item := table.item(row, col)) is not None:
                    needed = max(needed, table.fontMetrics().horizontalAdvance(item.text()) + 12)
            widths[col] = needed
        spare = table.viewport().width() - sum(widths.values())
        if spare > 0:
            widths[R_DOC] += spare
        for col, width in widths.items():
            header.resizeSection(col, width)

    def rules_changed(self) -> None:
        self.fit_columns()
        self.pair_count = None
        if self.isVisible():
            self.pairs.setText(_("Counting candidate pairs…"))
            self.estimator.request()
        self.completeChanged.emit()

    def _estimate_job(self) -> Callable[[], tuple[int, int]]:
        owner = self.owner
        config, file, service = owner.config(), owner.file, owner.ctx.app.registry
        assert file is not None
        return lambda: service.estimate_pairs(file, config)

    def _pairs_ready(self, counts: tuple[int, int]) -> None:
        count, documents = counts
        self.pair_count = count
        kept = self.owner.preview.kept if self.owner.preview else 0
        self.pairs.setText(
            ngettext(
                "These rules leave <b>{count}</b> row–document pair to compare in detail for "
                "{rows}, out of {all_pairs} if every row were compared with every document.",
                "These rules leave <b>{count}</b> row–document pairs to compare in detail for "
                "{rows}, out of {all_pairs} if every row were compared with every document.",
                count,
            ).format(
                count=count,
                rows=npgettext("rules preview", "{count} row", "{count} rows", kept).format(
                    count=kept
                ),
                all_pairs=kept * documents,
            )
        )

    def isComplete(self) -> bool:
        return self.table.rowCount() > 0


def _combo_width(box: QComboBox) -> int:
    """The width ``box`` needs for its chosen text whole (the arrow and frames too; an
    editable box's line edit keeps a few pixels' margin)."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    metrics = box.fontMetrics()
    text = QSize(metrics.horizontalAdvance(box.currentText()), metrics.height())
    size = box.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, box)
    return size.width() + (8 if box.isEditable() else 2)
