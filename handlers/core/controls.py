"""The controls people have while a debate runs, in the order they are offered: Discord shows
each as a button under the status message, the console takes each as a typed `/<name>`. A new
control is its feature package (its event, rule and `Control`), one line here, and its words
(`front.button_<name>` and what it says in the thread)."""

from __future__ import annotations

from handlers.core.ending.rules import STOP
from handlers.core.feature import Control
from handlers.core.steelman.rules import STEELMAN
from handlers.core.turns.rules import SKIP

CONTROLS: tuple[Control, ...] = (STOP, SKIP, STEELMAN)


def control_named(name: str) -> Control | None:
    """The control called `name` (None: no such control)."""
    return next((control for control in CONTROLS if control.name == name), None)
