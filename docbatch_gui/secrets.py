"""Secrets: from the environment, else the OS keyring; never from a settings file.

The GUI stores what an operator types into the keyring; scripts and servers use the
environment. A machine without a keyring backend simply has no stored secrets.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)

SERVICE = "DocBatch"


def keyring_secret(name: str) -> str | None:
    try:
        import keyring
        from keyring.errors import KeyringError

        try:
            return keyring.get_password(SERVICE, name) or None
        except KeyringError as exc:
            log.info("keyring unavailable (%s); using the environment only", type(exc).__name__)
            return None
    except Exception:  # no backend, D-Bus down, locked collection: treat as absent
        return None


def set_keyring_secret(name: str, value: str) -> None:
    import keyring

    keyring.set_password(SERVICE, name, value)
