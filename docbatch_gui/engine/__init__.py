"""The engine: intake, the worker loop, recovery. It decides what is persisted."""
