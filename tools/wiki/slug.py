"""Wiki paths for a debate's pages: Hangul kept, unique per debate, valid for Wiki.js."""

from __future__ import annotations

import re
import unicodedata

MAX_PATH_CHARS = 255  # Wiki.js stores path in a varchar(255)
MAX_TOPIC_CHARS = 50  # readable links; 4-byte letters still fit a 255-byte file name
LONGEST_PAGE = len("working-document")
# Characters Wiki.js rejects (6005) or that break a page URL.
FORBIDDEN_CHARS = frozenset(".?:\"|<>*#\\%&+=;,'`^~[]{}()!$@")
# First path segments that Wiki.js routes itself, so a page there is unreachable.
RESERVED_FIRST = frozenset(
    {"login", "logout", "register", "verify", "healthz", "graphql", "_assets", "_userav"}
)
_DASHES = re.compile(r"-{2,}")


class SlugError(ValueError):
    """A configured wiki root cannot hold reachable pages."""


def topic_slug(debate_id: int, topic: str, root: str = "", key: str = "") -> str:
    """The debate's folder name: `<id>-<key>-<topic words>`, Hangul and other letters kept.
    The key (random, stored with the debate) keeps two databases that share a wiki, each
    counting from 1, out of each other's folders; a debate stored before it has none."""
    prefix = f"{debate_id}-{_words(key)}" if _words(key) else str(debate_id)
    words = _words(topic)
    budget = MAX_PATH_CHARS - len(normalize_root(root)) - 2 - LONGEST_PAGE - len(f"{prefix}-")
    words = words[: max(0, min(MAX_TOPIC_CHARS, budget))].strip("-")
    return f"{prefix}-{words}" if words else f"debate-{prefix}"


def page_path(root: str, slug: str, page: str) -> str:
    """`{root}/{slug}/{page}` without leading or trailing slashes."""
    name = "/".join(_segment(part) for part in page.split("/") if part) or "page"
    return "/".join(part for part in (normalize_root(root), slug, name) if part)


def _segment(part: str) -> str:
    """One segment of a page's path; an asset (`concepts.svg`) keeps its suffix."""
    stem, dot, suffix = part.rpartition(".")
    if dot and suffix == "svg":
        return f"{_words(stem) or 'page'}.svg"
    return _words(part) or "page"


def normalize_root(root: str) -> str:
    """The root without surrounding slashes or empty segments."""
    return "/".join(part for part in root.strip().split("/") if part)


def check_root(root: str) -> None:
    """Raise SlugError if pages under `root` would be illegal or unreachable."""
    normalized = normalize_root(root)
    if not normalized:
        return
    problems = path_problems(f"{normalized}/1-x/agenda")
    if problems:
        raise SlugError(f"WIKI_ROOT {root!r}: {problems[0]}")


def path_problems(path: str) -> list[str]:
    """Why a path is not a valid, reachable Wiki.js page path (empty when it is)."""
    problems = []
    if len(path) > MAX_PATH_CHARS:
        problems.append(f"longer than {MAX_PATH_CHARS} characters")
    if path.startswith("/") or path.endswith("/") or "//" in path:
        problems.append("leading, trailing or double slash")
    if any(ch in FORBIDDEN_CHARS or ch.isspace() or not ch.isprintable() for ch in path):
        problems.append('a character Wiki.js rejects (dot, space, ?:"|<>*# ...)')
    first = path.split("/", 1)[0]
    if len(first) < 3:
        problems.append("first segment shorter than 3 characters (read as a locale)")
    if first.lower() in RESERVED_FIRST:
        problems.append(f"first segment {first!r} is a Wiki.js route")
    return problems


def _words(text: str) -> str:
    """Letters and digits of any script, lowercased ASCII, joined by single dashes."""
    text = unicodedata.normalize("NFC", text)
    kept = [
        (ch.lower() if ch.isascii() else ch) if ch.isalnum() and ch.isprintable() else "-"
        for ch in text
    ]
    return _DASHES.sub("-", "".join(kept)).strip("-")
