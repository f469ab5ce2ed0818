"""Checks of extracted values against their pages and their kind."""
