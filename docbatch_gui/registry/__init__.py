"""Headless registry import: an Excel list of documents that should exist.

The registry is read here into plain data (rows in three representations, filtered-row
samples and statistics); persisting it, the ``force`` re-import guard and matching are
the caller's business, so this package has no storage, CLI or Qt dependency.
"""
