"""DocBatch: bulk processing of scanned documents.

Layers from ``domain`` (data classes, job states, errors) up through ``pipeline``,
``llm``, ``settings``, ``storage``, ``coordination``, ``registry``, ``sources``,
``engine``, ``distributed``, ``app`` (the facade and engine host), ``diagnostics`` and
``cli``; a package imports only those below it. Qt lives only in ``docbatch_gui._qt``
(the window), so the CLI, workers and tests run headless. docs/architecture.md draws
the layers; ``lint-imports`` enforces them.
"""

__version__ = "0.1.0"
