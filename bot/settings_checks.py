"""Settings that fail to load, said one line each (the name, what is wrong, how to fix it);
the checks behind the validators that need more than a type (URLs, formats, names that look
like a setting but are not one); and the folders a command writes to, checked before it
starts."""

from __future__ import annotations

import difflib
import enum
import types
import typing
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from dotenv import dotenv_values
from pydantic import SecretStr, ValidationError
from pydantic.fields import FieldInfo

from handlers.core.formats import FORMATS, formats_for
from handlers.core.participants import RosterError, parse_roster
from tools.store.db import is_postgres_url
from tools.wiki.local_files import probe_writable

MAX_SHOWN = 60  # characters of a bad value repeated back (never of a secret)


class SettingsError(Exception):
    """Settings are missing or invalid; each line of the message names one of them."""

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = tuple(lines)


def describe_errors(
    exc: ValidationError, fields: Mapping[str, FieldInfo], hints: Mapping[str, str] | None = None
) -> list[str]:
    """One line per invalid setting (pydantic may repeat one); `hints`: valid values known late."""
    lines: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else "settings"
        if name in lines:
            continue
        field = fields.get(name)
        wrong = _what_is_wrong(error, field)
        fix = how_to_fix(name, field, hints) if field is not None else "see .env.example"
        lines[name] = f"{name}: {wrong}; {fix}"
    return list(lines.values())


def _what_is_wrong(error: Mapping[str, Any], field: FieldInfo | None) -> str:
    message = str(error["msg"]).removeprefix("Value error, ")
    value = error.get("input")
    if field is None or _is_secret(field) or not isinstance(value, str):
        return message
    shown = value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "…"
    return f"{shown!r} is not valid ({message})"


def how_to_fix(name: str, field: FieldInfo, hints: Mapping[str, str] | None = None) -> str:
    """What a valid value looks like, and the default (leave it blank to use it)."""
    if name in _FIXES:
        return _FIXES[name]
    kind = (hints or {}).get(name) or _HINTS.get(name) or _kind(field.annotation)
    default = field.default
    if default in (None, ()) or _is_secret(field):
        keep = "leave it blank"
    else:
        shown = default.value if isinstance(default, enum.Enum) else default
        shown = str(shown).lower() if isinstance(shown, bool) else shown
        keep = f"leave it blank for the default {shown}"
    if not kind:  # free text: its validator's message says what is wrong
        return keep
    return f"set {kind}{_bounds(field.metadata)}, or {keep}"


def _kind(annotation: Any) -> str:
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _kind(args[0])
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _kind(args[0])
    if origin is typing.Literal:
        return "one of " + ", ".join(str(a) for a in args)
    if origin is tuple:
        return "comma-separated numeric ids (e.g. 123,456)"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(str(member.value) for member in annotation)
    return _SIMPLE.get(annotation, "")


_HINTS = {
    "CLAUDE_TOOLS": "read-only tools only, comma-separated",
    "WIKIJS_URL": "the wiki's address (http://host:3000)",
    "WIKI_PUBLIC_URL": "the address people open the wiki at (https://wiki.example.org)",
    "DATABASE_URL": "a PostgreSQL URL (postgresql://user:password@host:5432/database)",
    "PARTICIPANTS": "comma-separated id:backend[:name[:persona]] (e.g. claude:claude-cli,"
    "gemini:gemini-cli)",
}
_FIXES = {  # settings whose fix is another setting
    "WIKIJS_API_KEY": "create a full-access key in Wiki.js (Administration > API Access) and "
    "set it, or leave WIKIJS_URL blank for the local Markdown wiki",
    "GATEWAY_ONLY": "set DATABASE_URL (postgresql://...) too, or leave GATEWAY_ONLY blank",
}
_SIMPLE: dict[Any, str] = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    Path: "a file or folder path",
    SecretStr: "the secret value",
}


def _bounds(metadata: Sequence[Any]) -> str:
    parts = []
    for item in metadata:
        for attr, word in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            value = getattr(item, attr, None)
            if value is not None:
                parts.append(f"{word} {value}")
    return f" ({', '.join(parts)})" if parts else ""


def _is_secret(field: FieldInfo) -> bool:
    return _kind(field.annotation) == _SIMPLE[SecretStr]


CLOSE_ENOUGH = 0.85  # difflib ratio: MAX_ROUND and LOGLEVEL are caught, PATH and HOME are not


def mask_database_url(url: str) -> str:
    """`url` with everything between the user name and the host's `@` shown as `***`."""
    # The last `@` is the host's: a password holding `@` or `#` is masked whole.
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.partition(':')[0]}:***@{host}"


def check_database_url(secret: SecretStr) -> SecretStr:
    """`secret`; ValueError (the password masked) unless it is postgresql://user@host/db."""
    url = secret.get_secret_value()
    shown = mask_database_url(url)
    if not is_postgres_url(url):
        raise ValueError(f"{shown} does not start with postgresql://")
    if "#" in url or url.partition("://")[2].count("@") > 1:
        raise ValueError(f"{shown}: a password with @ or # must be written %40 or %23")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValueError(f"{shown} has a port that is not a number") from None
    if not parts.hostname and "host=" not in parts.query:
        raise ValueError(f"{shown} names no host")
    if not parts.path.strip("/"):
        raise ValueError(f"{shown} names no database (…/database at the end)")
    if port == 0:
        raise ValueError(f"{shown} has port 0")
    return secret


def check_web_address(url: str) -> str:
    """`url`; ValueError unless it is an http(s) address with a host."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https"):
        raise ValueError("it does not start with http:// or https://")
    if not parts.hostname:
        raise ValueError("it names no host")
    return url


def format_problem(name: str, participants: str | None) -> str:
    """Why DEFAULT_FORMAT `name` cannot run with `participants` (None: invalid), or ""."""
    if name not in FORMATS:
        return "no such format"
    if participants is None:
        return ""
    try:
        roster = parse_roster(participants)
    except RosterError:
        return ""
    if name in formats_for(roster):
        return ""
    return f"{name} cannot run with these PARTICIPANTS"


def misnamed_settings(
    known: Collection[str], env_file: Path | None, environ: Mapping[str, str]
) -> list[str]:
    """A line per name in `env_file` or `environ` close to a setting's (a typo, else ignored)."""
    found = dict.fromkeys(environ, "the environment")
    if env_file is not None and env_file.is_file():
        found |= dict.fromkeys(dotenv_values(env_file), str(env_file))
    by_upper = {name.upper(): name for name in known}
    lines = []
    for name, where in sorted(found.items()):
        if name in known:
            continue
        guess = by_upper.get(name.upper())
        if guess is None:
            close = difflib.get_close_matches(name.upper(), known, n=1, cutoff=CLOSE_ENOUGH)
            guess = close[0] if close else None
        if guess is not None:
            lines.append(f"{name} (in {where}): not a setting, so it is ignored; rename it {guess}")
    return lines


def require_writable(folder: Path, name: str, fix: str) -> None:
    """Raise SettingsError naming `name` unless this user can create and write `folder`."""
    try:
        probe_writable(folder)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise SettingsError(f"{name} {folder}: cannot write there ({why}); {fix}") from None
