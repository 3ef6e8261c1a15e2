"""The `boardroom` format (seed 000), one folder: its rules (rules.py), its reply contract
(reply.py), its pages (pages.py) and closing report (report.py), its task models (schemas.py),
its prompts (prompts/boardroom/) and its demo recordings (demo/)."""

from handlers.core.formats.boardroom.rules import BOARDROOM

__all__ = ["BOARDROOM"]
