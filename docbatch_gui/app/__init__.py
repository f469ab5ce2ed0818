"""The application layer: the facade the GUI and the CLI call (``facade.DocBatchApp``),
the backends it opens, the review service and the figures its views show."""
