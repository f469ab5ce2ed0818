"""Pipeline steps: each takes data and returns data; the engine decides what to persist.

Nothing here imports ``docbatch_gui.storage``.
"""
