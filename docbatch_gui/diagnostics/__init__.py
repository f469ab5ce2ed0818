"""Checking an installation: ``docbatch doctor``, its live extraction check and the
*Test connection* calls the Settings tab shares with it."""
