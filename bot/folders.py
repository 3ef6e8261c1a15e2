"""Folders a command writes to, checked before it starts: one line and exit 2, not a traceback."""

from __future__ import annotations

from pathlib import Path

from bot.settings_errors import SettingsError
from tools.wiki.local_files import probe_writable


def require_writable(folder: Path, name: str, fix: str) -> None:
    """Raise SettingsError naming `name` unless this user can create and write `folder`."""
    try:
        probe_writable(folder)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise SettingsError(f"{name} {folder}: cannot write there ({why}); {fix}") from None
