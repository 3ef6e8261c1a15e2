"""The `ledger` format (seed 004), one folder: its rules (rules.py), its text work and pages
(text.py), its task models (schemas.py), its prompts (prompts/ledger/) and its demo
recordings (demo/)."""

from handlers.core.formats.ledger.rules import LEDGER_FORMAT

__all__ = ["LEDGER_FORMAT"]
