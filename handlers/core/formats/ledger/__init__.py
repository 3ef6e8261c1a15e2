"""The `ledger` format (seed 004), one folder: its rules (rules.py), its text work and pages
(text.py), the two-party confirmation round (confirm.py), the topic and participants pages
(record.py), its task and reply models (schemas.py), its prompts (prompts/ledger/) and its
demo recordings (demo/)."""

from handlers.core.formats.ledger.rules import LEDGER_FORMAT

__all__ = ["LEDGER_FORMAT"]
