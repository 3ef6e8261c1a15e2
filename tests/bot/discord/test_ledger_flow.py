"""With DEFAULT_FORMAT=ledger, an approved card through the Discord front end runs the whole
protocol to its end, in Korean and in Portuguese: Claude on the real `claude` CLI (the fake
Anthropic API), the moderator's tasks on the real google-genai SDK (the fake Gemini, each task
with its response schema). The card shows the assigned standpoints; AG (the real relay,
echoing its relay tag) and Claude take numbered turns, each on its own wiki page in the
debater's own Markdown; a reply missing its fields is asked for once more; the stance moves
carry their quotes; the debate closes with the ledger (`conclusion`), the `front-page` (an
orientation line, rules, callouts in the wiki's own syntax) and its diagram, the closing block,
and a last post naming the outcome and linking the ledger. No relay tag shows in any embed or
page. On Wiki.js (doubles for the seats) the diagram is an asset the front page's image
serves."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

import aiohttp
import pytest

from bot.discord.embeds import SUMMARY_LIMIT, summary_embed
from handlers.core.i18n import Strings
from handlers.core.model import Phase
from tests.bot.discord.conftest import BotRig, People
from tests.bot.discord.doubles import TAG
from tests.bot.discord.real_seats import GeminiTasks, RealClaude
from tests.bot.discord.support import chat, check_no_pings, click, wait_card
from tests.clis import installed_or_skip
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.fake_anthropic import FakeAnthropic, find_claude_bin
from tests.fakes.fake_gemini import FakeGemini
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tools.wiki.backends import split_front_matter

KEY = "⟦ledger.topic⟧"  # a real key Claude writes: the pages and the thread keep it as written
RELAY_TAG = re.compile(r"\[debate \d+ · turn \d+\]")
SAID = {  # language -> (AG's round-1 sentence, Claude's round-1 sentence, a contested claim)
    "ko": ("단일 인스턴스에서는 LRU로 충분합니다.", "운영 부담이 먼저입니다.", "Redis 전환 시점"),
    "pt-BR": (
        "Com uma instância, LRU basta.",
        "O custo de operação vem primeiro.",
        "Quando migrar",
    ),
}
SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" fill="#fff"/></svg>'


def contract(opinion: str, stance: str, agreed: str, contested: str, **more: str) -> str:
    """A reply in the ledger's contract: prose, then the fenced JSON block with every field."""
    body = {
        "opinion": opinion,
        "stance": stance,
        "agreed": [agreed],
        "contested": [contested],
        "concessions": [],
        **more,
    }
    return "Intro.\n\n```json\n" + json.dumps(body, ensure_ascii=False) + "\n```"


def confirmed(*ids: str) -> str:
    """A reply to the written ledger (the confirmation round): the ids confirmed as written."""
    body = {"opinion": "## OK", "confirmed": list(ids), "amended": {}}
    return "```json\n" + json.dumps(body) + "\n```"


def claude_turn(n: int) -> str:
    """A Korean turn of Claude's with every field (other tests run the ledger on it)."""
    return contract(
        f"Claude {n}: 운영 부담부터 봅시다", "partial", "LRU", f"Redis 전환 시점 {n} {KEY}"
    )


@pytest.fixture
async def gemini_tasks(rig: BotRig, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeGemini]:
    """The rig's moderator tasks on Gemini (the fake answers what `script` pushes)."""
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    monkeypatch.delenv("GOOGLE_GEMINI_BASE_URL", raising=False)
    api = await FakeGemini().start()
    tasks = rig.moderator = GeminiTasks(rig, api, "ko")
    yield api
    if tasks.inner is not None:
        await tasks.inner.aclose()
    await api.stop()


@pytest.fixture
def real_claude(rig: BotRig) -> Iterator[RealClaude]:
    """The rig's Claude seat on the real CLI (skipped with a reason where it is missing)."""
    binary = str(installed_or_skip(find_claude_bin(), "claude"))
    with FakeAnthropic() as api:
        rig.claude = RealClaude(rig, api, binary)  # type: ignore[assignment]  # the real CLI in the fake's seat
        yield rig.claude  # type: ignore[misc]  # the real CLI in the fake's seat


def script(rig: BotRig, language: str) -> None:
    """AG and Claude move from partial to agree, each quoting the other; Claude's first reply
    lacks `contested` and `concessions` (one repair); the moderator writes both pages."""
    ag_said, claude_said, claim = SAID[language]
    ag = {
        1: contract(f"## AG 1\n\n{ag_said}", "partial", "LRU", f"{claim} {KEY}"),
        4: contract("## AG 2", "agree", "LRU", f"{claim} 2", convinced_by=claude_said),
        6: confirmed("A1"),
    }

    def reply_for(turn: int) -> str:  # AG echoes the relay tag of its prompt, as AG does
        tag = TAG.search(rig.ag.prompts[turn].content)
        assert tag is not None
        return f"{tag.group(0)} {ag[turn]}"

    rig.ag.reply_for = reply_for  # type: ignore[method-assign]  # AG's answer, scripted
    lacking = (
        "```json\n"
        + json.dumps({"opinion": "## Claude 1", "stance": "partial", "agreed": ["LRU"]})
        + "\n```"
    )
    rig.claude.enqueue(
        lacking,
        contract(f"## Claude 1\n\n{claude_said}", "partial", "LRU", f"{claim} {KEY}"),
        contract("## Claude 2", "agree", "LRU", f"{claim} 2 {KEY}", convinced_by=ag_said),
        confirmed("A1"),
    )
    ledger = {"agreed": ["LRU"], "amendments": [], "open": [f"{claim} 2 {KEY}"]}
    front = "# Cache\n\n> [!TIP]\n> LRU (A1), (Q1)\n\n---\n\n![diagram](concepts.svg)\n"
    answers = [json.dumps(ledger, ensure_ascii=False), json.dumps({"markdown": front, "svg": SVG})]
    if isinstance(rig.moderator, GeminiTasks):
        rig.moderator.language = language
        rig.moderator.api.push(*({"kind": "json", "obj": {"text": a}} for a in answers))
    else:
        rig.moderator.enqueue_task("ledger", answers[0])
        rig.moderator.enqueue_task("front-page", answers[1])


async def run_ledger(rig: BotRig, people: People, language: str) -> tuple[str, Strings]:
    """Approve a ledger card and wait for the outcome post and the wiki's last write: the
    thread and the debate's strings."""
    strings = Strings(language)
    rig.overrides.update({"DEFAULT_FORMAT": "ledger", "MAX_ROUNDS": 2, "LANGUAGE": language})
    script(rig, language)
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    roster = as_embed(card)["fields"][3]["value"]
    assert f"AG ({strings('ledger.standpoint_for')})" in roster
    assert f"Claude ({strings('ledger.standpoint_against')})" in roster
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]
    outcome = strings("debate.outcome_recorded", outcome=strings("front.outcome_consensus"), url="")
    await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith(outcome), timeout=30
    )
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.CONCLUDED and debate.setup.format == "ledger"
    assert rig.services is not None and rig.services.wiki is not None
    await asyncio.wait_for(rig.services.wiki.drained(debate_id), 30)
    check_thread(rig, thread_id, strings, outcome)
    check_no_pings(rig, {thread_id}, rig.ag.user_id)
    return thread_id, strings


def check_thread(rig: BotRig, thread_id: str, strings: Strings, outcome: str) -> None:
    """The repair said so, no move was unquoted, the closing block is followed by the outcome
    post, the thread's last word; no embed shows a relay tag."""
    messages = rig.bot_messages(thread_id)
    texts = [visible_text(m) for m in messages]
    assert any(
        strings("ledger.repair", seat="Claude", missing="contested, concessions") == t
        for t in texts
    ), texts
    unquoted = strings("concession.unquoted", seat="AG").split("AG")[1][:20]
    assert not any(unquoted in t for t in texts)
    closing = max(
        i
        for i, m in enumerate(messages)
        if as_embed(m).get("title") == strings("front.conclusion_title")
    )
    last = [i for i, m in enumerate(messages) if visible_text(m).startswith(outcome)]
    assert last == [len(messages) - 1] and closing < last[0]
    assert "**A1**" in as_embed(messages[closing])["description"]
    for request in rig.claude.requests:  # nor in what the other seat is handed
        assert not RELAY_TAG.search(request.prompt)
    for message in messages:
        for embed in message["embeds"]:
            shown = json.dumps(embed, ensure_ascii=False)
            assert not RELAY_TAG.search(shown), shown


@pytest.mark.cli
@pytest.mark.parametrize("language", ["ko", "pt-BR"])
async def test_a_ledger_debate_runs_to_its_end(
    rig: BotRig, people: People, real_claude: RealClaude, gemini_tasks: FakeGemini, language: str
) -> None:
    thread_id, strings = await run_ledger(rig, people, language)
    for sent in gemini_tasks.generate_requests:  # each task with its schema
        config = sent["json"]["generationConfig"]
        assert config["responseMimeType"] == "application/json" and config["responseSchema"]
    assert len(gemini_tasks.generate_requests) == 2
    assert len(real_claude.requests) == 4 and len(real_claude.api.messages()) >= 4  # the CLI's
    folder = next((rig.tmp / "wiki" / "debates").iterdir())
    turns = sorted(p.name for p in (folder / "turns").iterdir())
    assert turns == [
        "01-ag.md",
        "02-claude.md",
        "03-claude.md",
        "04-ag.md",
        "05-claude.md",
        "06-ag.md",  # the confirmation round: each side read the written ledger
        "07-claude.md",
    ]
    pages = {
        p.relative_to(folder).as_posix(): split_front_matter(p.read_text("utf-8"), "")[1]
        for p in folder.rglob("*")
        if p.is_file()
    }
    for name, text in pages.items():
        assert not RELAY_TAG.search(text), name
    first = pages["turns/01-ag.md"]  # the debater's Markdown, then the reply collapsed
    mine, _, raw = first.partition("<details>")
    assert f"## AG 1\n\n{SAID[language][0]}" in mine and '"opinion"' not in mine
    assert f"<summary>{strings('ledger.raw_reply')}</summary>" in raw and '"opinion"' in raw
    front = pages["front-page.md"]
    links = [
        f"[{strings('ledger.turn')} {n} · {who}](turns/{n:02d}-{who.lower()}.md)"
        for n, who in enumerate(("AG", "Claude", "Claude", "AG", "Claude", "AG", "Claude"), 1)
    ]
    line = f"**{strings('ledger.orientation')}** " + " · ".join(links)
    ledger = f"[{strings('ledger.page_conclusion')}](conclusion.md)"
    assert front.startswith(f"# Cache\n\n{line} · {ledger}\n\n---\n\n> [!TIP]"), front
    assert "> [!TIP]\n> LRU (A1), (Q1)" in front and "![diagram](concepts.svg)" in front
    assert pages["concepts.svg"] == SVG and "LRU" in pages["conclusion.md"]
    outcome = [visible_text(m) for m in rig.bot_messages(thread_id)][-1]
    url = outcome.rsplit(" ", 1)[-1]
    assert Path(unquote(urlparse(url).path)) == folder / "conclusion.md"


async def test_a_ledger_debate_on_wiki_js_writes_its_own_syntax(
    rig: BotRig, people: People
) -> None:
    wiki = FakeWikiJs()
    await wiki.start()
    try:
        rig.overrides.update({"WIKIJS_URL": wiki.url, "WIKIJS_API_KEY": FULL_KEY})
        thread_id, _ = await run_ledger(rig, people, "pt-BR")
        [asset] = wiki.assets.files  # one file, uploaded once
        assert wiki.assets.files[asset].uploads == 1 and asset.endswith("/concepts.svg")
        pages = {p.path: p.content for p in wiki.pages.values()}
        front_path = next(p for p in pages if p.endswith("/front-page"))
        front = pages[front_path]
        base = front_path.removesuffix("/front-page")
        image = re.search(r"!\[diagram\]\(([^)]+)\)", front)
        assert image is not None and image[1] == "/" + quote(asset, safe="/")
        async with aiohttp.ClientSession() as http, http.get(wiki.url + image[1]) as served:
            assert served.status == 200 and await served.read() == SVG.encode()
        assert "[!TIP]" not in front and "> LRU (A1), (Q1)\n{.is-success}\n" in front
        for target in re.findall(r"\]\((/[^)]+)\)", front):  # every page link resolves
            assert unquote(target).lstrip("/") in pages or target == image[1], target
        assert f"](/{quote(base, safe='/')}/turns/05-claude)" in front
        assert not any(RELAY_TAG.search(text) for text in pages.values())
        assert not any(p.endswith("concepts-svg") for p in pages) and wiki.invalid == []
        outcome = [visible_text(m) for m in rig.bot_messages(thread_id)][-1]
        assert outcome.endswith(f"/{quote(base, safe='/')}/conclusion")
    finally:
        await wiki.stop()


def test_a_long_closing_block_says_where_the_whole_is() -> None:
    strings = Strings("ko")
    long = "\n".join(f"✅ **A{n}** " + "합의된 주장 " * 20 for n in range(1, 60))
    embed = summary_embed("ledger", long, {"conclusion": "https://wiki.test/c"}, strings)
    assert embed.description is not None and len(embed.description) <= SUMMARY_LIMIT
    assert embed.description.endswith(strings("front.summary_cut"))
    short = summary_embed("ledger", "✅ **A1** x", {}, strings)
    assert short.description == "✅ **A1** x"
