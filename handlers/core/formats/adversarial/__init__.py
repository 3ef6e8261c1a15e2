"""The `adversarial` format (seed 003), one folder: its rules (rules.py), the intake audit
(audit.py) and its words (words.py), the roles' briefs (briefs.py), the line-prefix reply
contract (contract.py), the Debate Result (result.py), the seats it adds (seats.py), its task
models (schemas.py), its prompts (prompts/adversarial/) and its demo recordings (demo/)."""

from handlers.core.formats.adversarial.rules import ADVERSARIAL

__all__ = ["ADVERSARIAL"]
