"""`debate-room verify`: for each format, a demo debate's export file and its wiki pages (the
local wiki, and Wiki.js through the real client against the fake server) verify untouched;
one changed character of one turn, a changed marker, a deleted turn or turns out of order make
it name that turn, in the bot's language; unreadable input and a wiki that is down exit 2
with one line, no traceback."""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.demo.replay import recording_for
from bot.demo.runner import DB_NAME, replay
from handlers.core.formats import FORMATS
from handlers.core.i18n import Strings
from tests.bot.console.conftest import plain_console
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tools.wiki.backends import LocalWiki
from tools.wiki.wikijs import WikiJsWiki

_MARKER = re.compile(r"<!-- debate-room:chain v1 turn=(\d+) seat=(\S+) raw=([0-9a-f]{64}) ")
T = Strings("en")


@dataclass(frozen=True)
class Demo:
    """A replayed demo debate: its export file, its wiki folder and its settings file."""

    debate_id: int
    export: Path
    wiki: Path
    env: Path
    round_log: Path


async def _demo(tmp_path: Path, name: str) -> Demo:
    out = tmp_path / name
    recording = recording_for(name, "en")
    result = await replay(plain_console(io.StringIO(), width=400), out, 0.0, recording)
    env = tmp_path / f"{name}.env"
    env.write_text(f"DATABASE_PATH={out / DB_NAME}\nLOCAL_WIKI_DIR={out / 'wiki'}\n", "utf-8")
    export = out / f"debate-{result.debate.id}.md"
    round_log = result.pages["round-log"]
    return Demo(result.debate.id, export, out / "wiki", env, round_log)


async def _verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command run as a person runs it (its own event loop, off the test's)."""
    code = await asyncio.to_thread(main, ["verify", *args, "--language", "en"])
    said = capsys.readouterr()
    return code, said.out.strip(), said.err.strip()


async def _file(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    """The exit code and the answer of `verify <path>`."""
    return (await _verify(capsys, str(path)))[:2]


def _turns(text: str) -> list[tuple[int, str, str]]:
    """(number, seat, raw hash) of every chained turn, in the text's order."""
    return [(int(n), seat, raw) for n, seat, raw in _MARKER.findall(text)]


def _one_character_changed(text: str, number: int) -> str:
    """`text` with one letter of turn `number`'s reply changed (below its heading and meta)."""
    start = text.index(f"chain v1 turn={number} ")
    body = text.index("\n_", start)  # the meta line
    body = text.index("\n\n", body + 2) + 2  # the reply's first line
    spot = next(i for i in range(body, len(text)) if text[i].isalpha())
    return text[:spot] + ("x" if text[spot] != "x" else "y") + text[spot + 1 :]


@pytest.mark.parametrize("name", list(FORMATS))
async def test_an_untouched_debate_verifies_from_its_file_and_its_local_pages(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = await _demo(tmp_path, name)
    code, said, _ = await _verify(capsys, str(demo.export))
    assert code == 0, said
    assert said.startswith("✅")
    code, said, err = await _verify(capsys, str(demo.debate_id), "--env-file", str(demo.env))
    assert (code, err) == (0, ""), said
    assert said.startswith("✅")


@pytest.mark.parametrize("name", list(FORMATS))
async def test_one_changed_character_names_its_turn_in_the_file_and_in_a_page(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = await _demo(tmp_path, name)
    text = demo.export.read_text("utf-8")
    number, seat, _ = _turns(text)[-1]  # the last turn: every link before it still holds
    demo.export.write_text(_one_character_changed(text, number), "utf-8")
    assert (await _verify(capsys, str(demo.export)))[:2] == (
        1,
        T("record.reply", turn=number, seat=seat),
    )

    page = demo.round_log.read_text("utf-8")
    first, seat, _ = _turns(page)[0]
    demo.round_log.write_text(_one_character_changed(page, first), "utf-8")
    said = await _verify(capsys, str(demo.debate_id), "--env-file", str(demo.env))
    assert said[:2] == (1, T("record.reply", turn=first, seat=seat))


async def test_a_changed_marker_a_deleted_turn_and_reordered_turns_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = await _demo(tmp_path, "free")
    text = demo.export.read_text("utf-8")
    turns = _turns(text)
    (n2, seat2, raw2), n3 = turns[1], turns[2][0]

    demo.export.write_text(text.replace(raw2, raw2[:-1] + ("0" if raw2[-1] != "0" else "1")))
    assert (await _verify(capsys, str(demo.export)))[:2] == (
        1,
        T("record.marker", turn=n2, seat=seat2),
    )

    starts = [m.start() for m in re.finditer(r"<!-- debate-room:chain v1 turn=", text)]
    second = text[starts[1] : starts[2]]
    demo.export.write_text(text.replace(second, ""))  # the whole section, marker and all
    assert (await _verify(capsys, str(demo.export)))[:2] == (
        1,
        T("record.missing", turn=n2, seat=seat2),
    )

    third = text[starts[2] : starts[3]]
    demo.export.write_text(text[: starts[1]] + third + second + text[starts[3] :])
    assert (await _verify(capsys, str(demo.export)))[:2] == (
        1,
        T("record.order", turn=n2, seat=seat2),
    )
    assert n3 == n2 + 1


@pytest.mark.parametrize("name", list(FORMATS))
async def test_the_pages_verify_from_wikijs_and_a_person_s_edit_is_named(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = await _demo(tmp_path, name)
    fake = FakeWikiJs()
    url = await fake.start()
    try:
        local, wikijs = LocalWiki(demo.wiki), WikiJsWiki(url, FULL_KEY)
        for file in sorted(demo.wiki.rglob("*.md")):  # every page, as the outbox wrote it
            path = file.relative_to(demo.wiki).with_suffix("").as_posix()
            page = await local.read(path)
            assert page is not None
            await wikijs.write(path, page.title, page.content, await wikijs.read(path))
        await wikijs.aclose()
        env = tmp_path / "wikijs.env"
        wiki = f"WIKIJS_URL={url}\nWIKIJS_API_KEY={FULL_KEY}\n"
        env.write_text(demo.env.read_text("utf-8") + wiki, "utf-8")
        args = ["verify", str(demo.debate_id), "--env-file", str(env), "--language", "en"]
        assert await asyncio.to_thread(main, args) == 0
        assert capsys.readouterr().out.startswith("✅")

        path = demo.round_log.relative_to(demo.wiki).with_suffix("").as_posix()
        stored = fake.page_at(path)
        assert stored is not None
        number, seat, _ = _turns(stored.content)[-1]
        fake.edit_as_person(path, _one_character_changed(stored.content, number))
        assert await asyncio.to_thread(main, args) == 1
        assert capsys.readouterr().out.strip() == T("record.reply", turn=number, seat=seat)

        await fake.refuse_connections()  # the wiki is down: exit 2, one line
        assert await asyncio.to_thread(main, args) == 2
        err = capsys.readouterr().err
        assert err.startswith("debate-room verify: ") and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1
    finally:
        await fake.stop()


async def test_unreadable_input_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "notes.md"
    plain.write_text("# Notes\n\nNo chain here.\n", "utf-8")
    code, _, err = await _verify(capsys, str(plain))
    assert (code, err) == (2, T("record.unreadable", path=plain, reason=T("record.no_chain")))
    missing = tmp_path / "gone.md"
    code, _, err = await _verify(capsys, str(missing))
    assert (code, err) == (2, T("record.unreadable", path=missing, reason=T("record.no_file")))

    demo = await _demo(tmp_path, "free")
    mangled = re.sub(r"links=(\d+):", r"links=\1;", demo.export.read_text("utf-8"))
    plain.write_text(mangled, "utf-8")  # the head's line edited past reading
    code, _, err = await _verify(capsys, str(plain))
    assert (code, err) == (2, T("record.unreadable", path=plain, reason=T("record.no_chain")))
    later = demo.export.read_text("utf-8").replace("chain v1 ", "chain v9 ")
    demo.export.write_text(later, "utf-8")
    code, _, err = await _verify(capsys, str(demo.export))
    scheme = T("record.unknown_scheme", scheme="chain v9")
    assert (code, err) == (2, T("record.unreadable", path=demo.export, reason=scheme))
    code, _, err = await _verify(capsys, "99", "--env-file", str(demo.env))
    assert (code, err) == (
        2,
        T("record.unreadable", path="99", reason=T("record.no_debate", id=99)),
    )


async def test_the_head_the_thread_showed_is_compared_when_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = await _demo(tmp_path, "adversarial")
    code, said, _ = await _verify(capsys, str(demo.export))
    head = said.rsplit("`", 2)[1]
    assert (await _verify(capsys, str(demo.export), "--head", head))[0] == 0
    other = ("0" if head[0] != "0" else "1") + head[1:]
    code, said, _ = await _verify(capsys, str(demo.export), "--head", other)
    assert (code, said) == (1, T("record.head_changed"))
