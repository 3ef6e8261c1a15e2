"""`debate-room demo`: the recorded debate through the real engine, SQLite and the local wiki."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.demo.replay import RecordingError, load_recording, recorded, recording_for
from bot.demo.runner import DB_NAME, replay, run_demo
from handlers.core.formats import format_named
from handlers.core.formats.ledger.text import ledger_items
from handlers.core.i18n import Strings
from handlers.core.model import Outcome, Phase, WikiPage
from handlers.core.reply.parser import parse_reply
from tests.bot.console.conftest import plain_console
from tools.store.db import Database
from tools.store.debates import SqliteStore

RECORDING = load_recording()
T = Strings(RECORDING.language)


def test_the_recording_is_what_the_demo_promises() -> None:
    assert RECORDING.language == "ko" and 3 <= len(RECORDING.chat) <= 4
    assert 4 <= len(RECORDING.turns) <= 6
    assert {turn.seat for turn in RECORDING.turns} == {"ag", "claude"}
    for entry in RECORDING.turns:
        assert 800 <= len(entry.reply) <= 2000, entry.turn
        parsed = parse_reply(entry.reply)
        assert parsed.structured, entry.turn
        assert parsed.stance is not None or entry.turn == 1, entry.turn
    assert any(parse_reply(e.reply).wiki_action for e in RECORDING.turns)
    assert any(parse_reply(e.reply).question for e in RECORDING.turns)


@pytest.mark.parametrize("language", ["", "en", "pt-BR"])  # LANGUAGE picks the recording
def test_the_demo_runs_with_an_empty_environment(tmp_path: Path, language: str) -> None:
    # A `.env` that the bot would refuse: the demo reads no settings at all.
    (tmp_path / ".env").write_text("MAX_ROUNDS=many\nDISCORD_TOKEN=\n", encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    env |= {"LANGUAGE": language} if language else {}
    recording, t = recording_for("free", language or "ko"), Strings(language or "ko")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(t("console.demo_banner"))  # labelled as a replay from the start...
    assert out.rstrip().endswith(t("console.demo_end"))  # ...to the end

    folder = next((tmp_path / "data" / "demo" / "wiki" / "debates").iterdir())
    pages = {page: folder / f"{page.value}.md" for page in WikiPage}
    for page, path in pages.items():
        assert path.is_file(), page
        assert str(path) in out  # the four file paths are printed at the end
        title = path.read_text(encoding="utf-8").splitlines()[1]
        assert recording.detection.topic in title, title
    round_log = pages[WikiPage.ROUND_LOG].read_text(encoding="utf-8")
    for entry in recording.turns:
        parsed = parse_reply(entry.reply)
        assert parsed.opinion in round_log  # every reply's argument in full, as Markdown
        if parsed.wiki_action is not None:  # and the change it proposed
            assert parsed.wiki_action.content in round_log
        assert parsed.opinion in out  # and its argument on the screen
    conclusion = pages[WikiPage.CONCLUSION].read_text(encoding="utf-8")
    assert recording.conclusion.decision in conclusion and recording.conclusion.decision in out
    assert recording.answers[2][1] in out
    assert "Redis Streams" in pages[WikiPage.WORKING_DOCUMENT].read_text(encoding="utf-8")


async def test_the_replay_is_stored_like_a_real_debate(tmp_path: Path) -> None:
    screen = io.StringIO()
    result = await replay(plain_console(screen), tmp_path / "demo", 0.0)
    assert result.debate.phase is Phase.CONCLUDED
    assert result.debate.ending.outcome is Outcome.CONSENSUS
    db = await Database.open(str(tmp_path / "demo" / DB_NAME))
    try:
        turns = await SqliteStore(db).last_turns(result.debate.id, 1000)
    finally:
        await db.close()
    # the engine's own random draw gave the recorded speaking order
    assert [(t.number, t.seat, t.text) for t in turns] == [
        (e.turn, e.seat, e.reply) for e in RECORDING.turns
    ]
    assert abs(result.debate.spend.cost_usd - sum(e.meta.cost_usd for e in RECORDING.turns)) < 1e-9

    again = await replay(plain_console(io.StringIO()), tmp_path / "demo", 0.0)
    assert again.debate.id == 1  # a second run starts clean
    sections = again.pages[WikiPage.ROUND_LOG].read_text(encoding="utf-8").count("\n## 라운드 ")
    assert sections == len(RECORDING.turns)  # not the first run's sections plus the second's


async def test_a_folder_that_is_not_the_demos_is_left_alone(tmp_path: Path) -> None:
    mine = tmp_path / "out" / "wiki"
    mine.mkdir(parents=True)
    (mine / "notes.md").write_text("mine", encoding="utf-8")
    with pytest.raises(RecordingError):
        await replay(plain_console(io.StringIO()), tmp_path / "out", 0.0)
    assert (mine / "notes.md").read_text(encoding="utf-8") == "mine"


def test_the_demo_replays_a_format_s_recording_and_names_the_ones_it_has(tmp_path: Path) -> None:
    screen = io.StringIO()
    assert run_demo(out=tmp_path / "demo", pace_s=0.0, console=plain_console(screen)) == 0
    assert recording_for("free").format_name == "free"
    missing = io.StringIO()
    code = run_demo(
        out=tmp_path / "x", pace_s=0.0, console=plain_console(missing), format_name="nonesuch"
    )
    text = missing.getvalue()
    assert code == 2 and "nonesuch" in text
    assert T("console.demo_unrecorded", name="nonesuch.ko", recorded=", ".join(recorded())) in text
    assert not (tmp_path / "x").exists()  # nothing was written


async def test_no_replayed_moment_lies_in_the_future(tmp_path: Path) -> None:
    result = await replay(plain_console(io.StringIO()), tmp_path / "demo", 0.0)
    now = datetime.now(UTC)
    stamps = [
        datetime.strptime(found, "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
        for page in result.pages.values()
        for found in re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", page.read_text(encoding="utf-8"))
    ]
    assert stamps and max(stamps) <= now
    assert result.debate.ending.ended_at is not None and result.debate.ending.ended_at <= now


async def test_the_ledger_demo_replays_an_orchestrated_debate(tmp_path: Path) -> None:
    recording = recording_for("ledger")
    result = await replay(plain_console(io.StringIO()), tmp_path / "ledger", 0.0, recording)
    debate = result.debate
    assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.CONSENSUS
    assert len(debate.setup.roster) == 3 and debate.setup.format == "ledger"
    folder = result.pages[WikiPage.AGENDA].parent
    for entry in recording.turns:  # every turn its own page, verbatim, by round and participant
        rnd = (entry.turn - 1) // 3 + 1
        page = (folder / "turns" / f"{rnd:02d}-{entry.seat}.md").read_text(encoding="utf-8")
        assert entry.reply in page
    front = (folder / "front-page.md").read_text(encoding="utf-8")
    ledger = (folder / "conclusion.md").read_text(encoding="utf-8")
    items = ledger_items(recording.tasks["ledger"])
    assert len(items) == 6
    for item_id, _, wording in items:
        assert item_id in front and f"**{item_id}** {wording}" in ledger
    assert (folder / "concepts.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "⟦" not in front + ledger and "입장" in (folder / "topic.md").read_text(encoding="utf-8")
    assert set(result.pages) >= {"topic", "front-page", "turns/02-gemini"}


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
@pytest.mark.parametrize("format_name", ["free", "boardroom", "adversarial", "ledger"])
def test_each_format_replays_in_each_language(
    tmp_path: Path, format_name: str, language: str
) -> None:
    screen, t = io.StringIO(), Strings(language)
    code = run_demo(tmp_path / "demo", 0.0, plain_console(screen, width=200), format_name, language)
    out = screen.getvalue()
    assert code == 0 and out.startswith(t("console.demo_banner"))
    assert out.rstrip().endswith(t("console.demo_end"))
    recording = recording_for(format_name, language)
    assert recording.language == language and recording.detection.topic in out
    for entry in recording.turns:  # each reply in the debate's language, on the screen
        parsed = format_named(format_name).parse(entry.reply)  # as the engine reads it
        assert (parsed.opinion if parsed.structured else entry.reply).splitlines()[0] in out
    # the recording shows stance moves with their quotes, not warnings about itself
    degraded = f"{t('degraded.line')} {t('degraded.rules')}"
    assert degraded not in out
    assert "⚠️" not in out.replace(degraded, "") and "❌" not in out
    assert format_name not in ("free", "ledger") or "convinced_by" in out


def test_the_demo_command_lists_every_format_and_language() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    for word in ("free", "boardroom", "adversarial", "ledger", "--language", "pt-BR"):
        assert word in done.stdout, word


@pytest.mark.parametrize(("value", "expected"), [("fr", None), ("PT_BR", "pt-BR"), ("EN", "en")])
def test_the_demo_reads_language_as_run_does(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    value: str,
    expected: str | None,
) -> None:
    """`LANGUAGE=fr debate-room demo` is refused with run's own line (exit 2) and writes
    nothing; a language however it is cased replays in that language."""
    from bot.__main__ import EXIT_SETTINGS, main  # noqa: PLC0415

    monkeypatch.setenv("LANGUAGE", value)
    out = tmp_path / "demo"
    code = main(["demo", "--pace", "0", "--out", str(out)])
    said = capsys.readouterr()
    if expected is None:
        assert code == EXIT_SETTINGS
        assert said.err.splitlines() == [
            "debate-room: LANGUAGE: 'fr' is not valid (Input should be 'ko', 'en' or 'pt-BR'); "
            "set one of ko, en, pt-BR, or leave it blank for the default ko"
        ]
        assert said.out == "" and not out.exists()
        return
    assert code == 0, said.err
    assert said.out.startswith(Strings(expected)("console.demo_banner"))
