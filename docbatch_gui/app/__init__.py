"""The application layer: the facade the GUI and the CLI call (``facade.DocBatchApp``),
the engine host that runs it for the GUI (``host.EngineHost``), the review service and
the figures its views show."""
