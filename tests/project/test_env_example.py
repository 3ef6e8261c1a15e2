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


def test_every_setting_has_a_description_and_the_reference_is_current() -> None:
    """docs/settings.md is generated from the settings class (`python -m bot.settings_doc`):
    a setting without a description, or a reference older than the class, fails here."""
    from bot.settings_doc import COMPOSE_ONLY as DOC_COMPOSE_ONLY  # noqa: PLC0415
    from bot.settings_doc import EXAMPLE, REFERENCE, reference  # noqa: PLC0415

    undescribed = [name for name, info in Settings.model_fields.items() if not info.description]
    assert not undescribed, "add the string under each in bot/settings.py"
    assert set(DOC_COMPOSE_ONLY) == COMPOSE_ONLY
    text = reference(EXAMPLE.read_text(encoding="utf-8"))
    assert all(f"| `{name}` |" in text for name in (*Settings.model_fields, *COMPOSE_ONLY))
    assert REFERENCE.read_text(encoding="utf-8") == text, "run: python -m bot.settings_doc"
