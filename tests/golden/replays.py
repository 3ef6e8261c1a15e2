"""Each shipped demo recording replayed once per test process through the real engine (SQLite,
the wiki outbox, the local wiki, the console room) at pace 0, in-process; what people read of it,
normalised so that it is the same on every run (the demo's folder, the wiki's random key and the
replayed clock's dates and times stand as placeholders)."""

from __future__ import annotations

import asyncio
import atexit
import io
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import quote

from bot.demo.replay import Recording, recording_for
from bot.demo.runner import ADR_NAME, MARKER, DemoResult, replay
from handlers.core.formats import FORMATS, format_named
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import Debate
from tests.bot.console.conftest import plain_console

DEMOS = tuple((name, language) for name in FORMATS for language in LANGUAGES)
WIDTH = 400  # wide enough that no line of the thread is wrapped
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_TIME = re.compile(r"\b\d{2}:\d{2}(?=(?::\d{2})? UTC)")
_RULE = re.compile(r"─{3,}")  # a console rule, as long as the console is wide
_ROOT = Path(tempfile.mkdtemp(prefix="debate-room-golden-"))
atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)


@dataclass(frozen=True)
class Replayed:
    """One demo as people read it: the thread, its closing messages, the pages by their path
    in the debate's folder (all normalised), and the stored debate."""

    recording: Recording
    debate: Debate
    screen: str
    closing: str
    pages: dict[str, str]
    record_path: str  # the page that records the outcome, as a path in the debate's folder
    last_link: str  # the thread's last link, as a path in the debate's folder ('' if none)
    adr: str  # the decision as an ADR, written beside the pages

    @property
    def t(self) -> Strings:
        """The debate's words."""
        return Strings(self.recording.language)


@cache
def replayed(name: str, language: str) -> Replayed:
    """The demo of `name` in `language`, replayed once per process."""
    recording = recording_for(name, language)
    out, screen = _ROOT / f"{name}-{language}", io.StringIO()
    result = asyncio.run(replay(plain_console(screen, width=WIDTH), out, 0.0, recording))
    folder = _folder(result)
    t, debate = Strings(language), result.debate
    tidy = _normaliser(out, folder, debate.setup.wiki_key)
    text = _RULE.sub("───", tidy(screen.getvalue()))
    pages = {
        path.relative_to(folder).as_posix(): tidy(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != MARKER
    }
    record = result.pages[format_named(name).record_page(debate)].relative_to(folder).as_posix()
    links = re.findall(r"<wiki>/(\S+)", text)
    return Replayed(
        recording,
        debate,
        text,
        _closing(text, t),
        pages,
        record,
        links[-1] if links else "",
        tidy((out / ADR_NAME).read_text(encoding="utf-8")),
    )


def _folder(result: DemoResult) -> Path:
    """The debate's folder in the local wiki (each page lies in it or below it)."""
    return Path(min((str(p.parent) for p in result.pages.values()), key=len))


def _normaliser(out: Path, folder: Path, key: str) -> Callable[[str], str]:
    """What makes one run's text equal to every other's."""
    forms = (
        (folder.as_uri(), "<wiki>"),
        (str(folder), "<wiki>"),
        ("file://" + quote(str(folder)), "<wiki>"),
        (out.absolute().as_uri(), "<out>"),
        (str(out.absolute()), "<out>"),
        (str(out), "<out>"),
    )

    def tidy(text: str) -> str:
        for form, placeholder in forms:
            text = text.replace(form, placeholder)
        text = text.replace(key, "<key>") if key else text
        text = _DATE.sub("<date>", text)
        return _TIME.sub("<time>", text)

    return tidy


def _closing(screen: str, t: Strings) -> str:
    """The thread from its closing post (the Conclusion, or the format's block in its place)
    to its end."""
    titles = (t("console.conclusion_title"), t("front.summary_title"))
    lines = screen.splitlines()
    starts = [i for i, line in enumerate(lines) if "─" in line and any(x in line for x in titles)]
    return "\n".join(lines[starts[-1] :] if starts else lines).rstrip() + "\n"
