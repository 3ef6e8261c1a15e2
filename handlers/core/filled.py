"""`Filled`: the field type of a reply or task model for a text its reader needs (blank is
invalid). Shared by the moderator's reply models and the formats' task models."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator


def _filled(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


Filled = Annotated[str, AfterValidator(_filled)]  # a text its reader needs: blank is invalid
