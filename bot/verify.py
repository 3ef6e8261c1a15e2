"""`debate-room verify <export-file | debate-id>`: whether every turn of a debate's record is
as its hash chain says (handlers/core/record/chain.py), and if not, the first turn that
changed. Exit 0 intact, 1 changed, 2 unreadable (no such file or debate, no chain, the wiki
down), one line each, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.record.chain import (
    Problem,
    Record,
    Unreadable,
    Verdict,
    read_record,
    verify,
)

EXIT_INTACT, EXIT_CHANGED, EXIT_UNREADABLE = 0, 1, 2
_HELP = "check that a debate's record (an export file, or its wiki pages) is unchanged"


def add_parser(sub: Any) -> None:
    """Add `verify` to the `debate-room` parser."""
    parser = sub.add_parser("verify", help=_HELP)
    parser.add_argument(
        "target", help="an exported file (debate-<id>.md), or a debate's id to read its pages"
    )
    parser.add_argument(
        "--head", default="", help="the chain head the thread's closing message showed"
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="the language of the answer (default: LANGUAGE, else ko)",
    )


def run_verify_command(args: argparse.Namespace) -> int:
    """Check the file or the debate's pages (a debate's database and wiki from the settings
    file, `--env-file`); print the verdict in the chosen language."""
    t = Strings(args.language or _language())
    target = str(args.target)
    try:
        if Path(target).is_file():
            text = Path(target).read_text(encoding="utf-8", errors="surrogateescape")
            record, in_order = read_record([text]), True
        elif target.isdigit():
            record, in_order = asyncio.run(_from_wiki(int(target), args.env_file, t)), False
        else:
            return _unreadable(t, target, t("record.no_file"))
    except Unreadable as exc:
        scheme = str(exc)
        reason = t("record.no_chain") if scheme == "no head" else None
        return _unreadable(t, target, reason or t("record.unknown_scheme", scheme=scheme))
    except _Refused as exc:
        return _unreadable(t, target, str(exc))
    except OSError as exc:
        return _unreadable(t, target, exc.strerror or str(exc))
    verdict = verify(record, args.head, in_order)
    print(_said(verdict, record, t))  # noqa: T201  # the command's answer
    return EXIT_INTACT if verdict.intact else EXIT_CHANGED


class _Refused(Exception):
    """The debate's record cannot be read (said in the bot's language)."""


async def _from_wiki(debate_id: int, env_file: str | None, t: Strings) -> Record:
    """The debate's pages, read from the wiki its settings name."""
    from bot.root.engine import build_wiki_backend  # noqa: PLC0415  # loads only for an id
    from bot.root.sharing import database_url  # noqa: PLC0415
    from bot.root.tables import Tables  # noqa: PLC0415
    from bot.settings import settings_from_option  # noqa: PLC0415
    from tools.store.debates import DebateNotFound  # noqa: PLC0415
    from tools.wiki.backends import WikiError  # noqa: PLC0415
    from tools.wiki.record_pages import record_texts  # noqa: PLC0415

    settings = settings_from_option(env_file)
    tables = await Tables.open(database_url(settings) or str(settings.DATABASE_PATH))
    try:
        debate = await tables.store().load(debate_id)
    except DebateNotFound:
        raise _Refused(t("record.no_debate", id=debate_id)) from None
    finally:
        await tables.close()
    backend = build_wiki_backend(settings)
    try:
        texts = await record_texts(backend, settings.WIKI_ROOT, debate)
    except (WikiError, OSError) as exc:
        raise _Refused(t("record.wiki_down", reason=str(exc))) from None
    finally:
        await backend.aclose()
    if not texts:
        raise _Refused(t("record.no_pages"))
    return read_record(texts)


def _said(verdict: Verdict, record: Record, t: Strings) -> str:
    """The verdict as one line."""
    if verdict.problem is Problem.INTACT:
        return t("record.intact", count=len(record.listed), head=record.head)
    if verdict.problem is Problem.HEAD:
        return t("record.head_changed")
    return t(f"record.{verdict.problem.value}", turn=verdict.number, seat=verdict.seat)


def _unreadable(t: Strings, target: str, reason: str) -> int:
    print(t("record.unreadable", path=target, reason=reason), file=sys.stderr)  # noqa: T201  # one line, no traceback
    return EXIT_UNREADABLE


def _language() -> str:
    """LANGUAGE from the environment when it is one of the bot's, else ko."""
    value = os.environ.get("LANGUAGE", "").strip()
    return value if value in LANGUAGES else "ko"
