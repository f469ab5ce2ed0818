"""The desktop GUI: the only package that imports Qt.

Everything here is a thin layer over :class:`docbatch_gui.app.facade.DocBatchApp`; no
business rule lives in this package (napari's ``_qt`` split).
"""
