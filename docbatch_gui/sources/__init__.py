"""Where files come from: local files and folders (Yandex.Disk later)."""
