"""DocBatch: bulk processing of scanned documents.

Everything in this package except ``docbatch_gui.gui`` is free of Qt, so the CLI,
workers and tests can run it headless.
"""

__version__ = "0.1.0"
