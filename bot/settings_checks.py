"""The checks behind the settings' validators that need more than a type: URLs, formats, names
that look like a setting but are not one."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from handlers.core.formats import FORMATS, formats_for
from handlers.core.participants import RosterError, parse_roster
from tools.store.db import is_postgres_url

CLOSE_ENOUGH = 0.85  # difflib ratio: MAX_ROUND and LOGLEVEL are caught, PATH and HOME are not


def mask_database_url(url: str) -> str:
    """`url` with everything between the user name and the host's `@` shown as `***`."""
    # The last `@` is the host's: a password holding `@` or `#` is masked whole.
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.partition(':')[0]}:***@{host}"


def check_database_url(url: str) -> None:
    """Raise ValueError (the password masked) unless `url` is postgresql://user@host/db."""
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


def check_web_address(url: str) -> None:
    """Raise ValueError unless `url` is an http(s) address with a host."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https"):
        raise ValueError("it does not start with http:// or https://")
    if not parts.hostname:
        raise ValueError("it names no host")


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
