"""`.env.example` documents every setting with its default."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_ONLY = {"WIKI_DB_PASSWORD", "BOT_DB_PASSWORD"}  # read by docker-compose.yml, not by the bot


def test_every_setting_is_documented_with_its_default() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    documented = dict(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=(.*)$", text, re.MULTILINE))
    assert set(documented) == set(Settings.model_fields) | COMPOSE_ONLY
    for name, field in Settings.model_fields.items():
        default = field.default
        if default in (None, ()) or name.endswith(("_TOKEN", "_KEY")):
            continue
        shown = documented[name]
        if isinstance(default, bool):
            assert shown == str(default).lower(), name
            continue
        assert shown.lstrip("./") == str(default).lstrip("./") or float(shown) == default, name


def test_compose_only_settings_are_the_ones_compose_reads() -> None:
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert set(re.findall(r"\$\{([A-Z_]+)", compose)) == COMPOSE_ONLY
