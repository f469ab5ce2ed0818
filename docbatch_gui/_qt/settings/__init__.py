"""The Settings tab, built from the settings model."""
