"""`.env.example` documents every setting with its default."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_is_documented_with_its_default() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    documented = dict(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=(.*)$", text, re.MULTILINE))
    assert set(documented) == set(Settings.model_fields)
    for name, field in Settings.model_fields.items():
        default = field.default
        if default in (None, ()) or name.endswith(("_TOKEN", "_KEY")):
            continue
        shown = documented[name]
        assert shown.lstrip("./") == str(default).lstrip("./") or float(shown) == default, name
