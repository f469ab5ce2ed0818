"""Widgets and models shared by the tabs."""
