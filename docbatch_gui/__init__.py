"""DocBatch: bulk processing of scanned documents.

Layers from ``domain`` (data classes, job states, errors) up through ``pipeline``,
``llm``, ``settings``, ``storage``, ``coordination``, ``registry``, ``sources``,
``engine``, ``distributed``, ``app`` (the facade and engine host), ``diagnostics`` and
``cli``; a package imports only those below it. Qt lives only in ``docbatch_gui._qt``
(the window), so the CLI, workers and tests run headless. docs/architecture.md draws
the layers; ``lint-imports`` enforces them.
"""

import os
import sys

__version__ = "0.1.0"

# PyMuPDF imports its optional layout analyser when it is installed (PyMuPDF 2 depends
# on it): ``pymupdf.layout`` loads an ONNX model, about 0.8 s of CPU and 50 MB in every
# process that opens a PDF, each render child included. Only ``Page.get_layout()`` uses
# it, which DocBatch never calls, and the installer leaves it out of the bundle
# (build_installer.EXCLUDES). Refused here too, so that a run from source is the same:
# PyMuPDF treats the refused import as "not installed". The same for ``pymupdf4llm``
# (Markdown export, with numpy and tabulate: 0.5 s of CPU in every render child,
# measured with ``time.process_time`` around ``import pymupdf``, 0.72 s against 0.25 s),
# which PyMuPDF 2 imports only to offer ``Document.to_markdown()``.
sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[arg-type]
sys.modules.setdefault("pymupdf4llm", None)  # type: ignore[arg-type]

# numpy (the JPEG encoder's arrays, ``pipeline/jpeg.py``) starts OpenBLAS's thread pool
# as it is imported: a thread a core, 0.23 s of CPU and 120 MB of address space in each
# render child, for linear algebra DocBatch never does; with one thread, 0.07 s and
# 80 MB. Set before anything imports numpy, and inherited by the children.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
