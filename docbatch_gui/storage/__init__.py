"""Persistence: the job store and the blob store, behind protocols.

The embedded default is SQLite plus a local folder; a team uses MongoDB plus MinIO.
Both pass the same contract suites in ``tests/contract``.
"""
