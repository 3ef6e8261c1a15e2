"""Steelman's event: a person pressed Steelman (Discord's button, the console's `/steelman`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.model import Actor


@dataclass(frozen=True)
class SteelmanRequested:
    """An authorized person asked each side to restate the other's strongest case first."""

    actor: Actor
    kind: Literal["steelman_requested"] = "steelman_requested"
