"""The `free` format (design v3), one folder: its rules (rules.py), which use the engine's JSON
reply contract and prompts, and its demo recordings (demo/)."""

from handlers.core.formats.free.rules import FREE

__all__ = ["FREE"]
