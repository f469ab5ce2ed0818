"""Field checks: what a value gives away about itself, on every path.

Pure functions over documents and the profile (no Qt, no I/O beyond the bundled VAT
rate table): registration numbers (``ids``), VAT arithmetic (``vat``) and the
document-level checker that runs them all (``document``).
"""
