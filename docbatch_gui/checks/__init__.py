"""Checks of extracted documents: pure rules over a document and what is already known."""
