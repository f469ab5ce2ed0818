"""The Review tab: a document beside its pages, corrected and confirmed."""
