"""The Registry tab: the setup wizard, the matching run and the review of matches."""
