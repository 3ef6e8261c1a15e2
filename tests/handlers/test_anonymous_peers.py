"""Anonymous peers, in every format through the real engine: no debater's brief
names another seat, its vendor or its model (in the agenda a person wrote, the moderator's note
and the relayed replies too), however the name is spelled; the stored turns and the wiki keep
the names."""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from handlers.core.anonymous.peers import anonymize, letters, peer_names
from handlers.core.events import ProposalApproved
from handlers.core.formats.adversarial.rules import RECONCILER_ID
from handlers.core.model import AG, CLAUDE, GEMINI, Action, Backend, Debate, Decision, Participant
from tests.handlers.adversarial_script import adversarial_rig, advocate, challenger, intake
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.test_boardroom_flow import board
from tests.handlers.test_ledger import CONVERGE, said

ON = (("anonymous", "on"),)
TRIO = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini", persona="a cost reviewer"),
)
# What names a seat's maker, written out here (not read from the product's own list).
MAKERS = {
    Backend.AG_RELAY: ("AG", "Antigravity", "Gemini", "Google"),
    Backend.CLAUDE_CLI: ("Claude", "Anthropic", "Sonnet", "Opus"),
    Backend.GEMINI_CLI: ("Gemini", "Google"),
}
# Spellings that reached every debater before: in Hangul and katakana (particles attached),
# glued, joined, versioned, fullwidth or styled, with lookalike (Cyrillic С and а) or invisible
# letters inside; and words that only contain a short name, which must stay as written.
SPELLED = (
    "클로드는, 제미나이의, 구글, 앤트로픽, Claude3, Gemini2.5, ClaudeCode, claude_code, "
    "Ｃｌａｕｄｅ, Geminis, CLAUDE, Claude-3.5, Claude's, claude-code, MyClaudeBot, "
    "claude-sonnet-4-5-20250929, Gemini 2.5 Pro, "
    "앤스로픽, 제미니, 딥마인드, 안티그래비티, 소넷, 소네트, 오퍼스, 하이쿠, クロードは, グーグル, "
    "\u0421l\u0430ude, Cl\u200baude, Gem\u00adini, G\u2060oogle, Anthr\ufeffopic, 𝐂𝐥𝐚𝐮𝐝𝐞, "
    "AGREE, agenda"
)
NAMED = f"Claude와 AG, Gemini의 주장 (Anthropic, Google, claude-model, ag-model; {SPELLED})"
# What names a maker in any script, as a reader would see it once width, case, lookalike and
# invisible letters are set aside (the short `AG` is checked as a whole word, by `named`).
MAKER_WORDS = (
    *("claude", "anthropic", "sonnet", "opus", "haiku"),
    *("gemini", "google", "deepmind", "antigravity"),
    *("클로드", "앤트로픽", "앤스로픽", "소넷", "소네트", "오퍼스", "하이쿠", "クロード"),
    *("제미나이", "제미니", "구글", "딥마인드", "안티그래비티", "グーグル"),
)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"))
_CYRILLIC = str.maketrans("аАсСеЕоОрРіІ", "aAcCeEoOpPiI")
TOPIC = f"캐시 계층 선택 — {NAMED}"


def others(debate: Debate, reader: str) -> set[str]:
    """Every name of a seat other than `reader` (the Reconciler's is a role: it stays)."""
    own = debate.member(reader).persona
    found: set[str] = set()
    for member in debate.setup.roster:
        if member.id == reader:
            continue
        found |= {*MAKERS[member.backend], f"{member.id}-model"}
        found |= {member.persona} - {"", own}
        found |= set() if member.id == RECONCILER_ID else {member.id, member.name}
    return found


def named(prompt: str, name: str) -> bool:
    return bool(re.search(rf"(?<![0-9A-Za-z_]){re.escape(name)}(?![0-9A-Za-z_])", prompt, re.I))


def makers_seen(prompt: str) -> list[str]:
    """The makers' words a reader would find in `prompt`, however they are spelled."""
    seen = unicodedata.normalize("NFKC", prompt.translate(_INVISIBLE)).translate(_CYRILLIC)
    return [word for word in MAKER_WORDS if word in seen.casefold()]


async def run(rig: Rig) -> Debate:
    await rig.start()
    debate = await rig.h.propose(proposal(TOPIC))
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 30)
    return await rig.h.get(debate.id)


def free(path: Path) -> Rig:
    rig = Rig(path, roster=TRIO, options=ON, max_rounds=2)
    rig.moderator.enqueue(Decision(Action.CONTINUE, note=f"근거를 보강하세요: {NAMED}"))
    for member in TRIO:  # each names the others in its reply
        rig.debaters[member.id].default = json.dumps(
            {"opinion": f"{member.id}: {NAMED}"}, ensure_ascii=False
        )
    return rig


def boardroom(path: Path) -> Rig:
    rig = board(path, options=ON)
    rig.moderator.task_outputs["decision"] = [json.dumps({"decision": f"{NAMED}: yes or no?"})]
    return rig


def adversarial(path: Path) -> Rig:
    rig = adversarial_rig(path, "ko", options=ON)
    rig.moderator.task_outputs["intake"] = [intake().replace("Adopt Redis", f"{NAMED}: Redis")]
    for seat in (AG, CLAUDE):
        answers = rig.debaters[seat].answers  # type: ignore[attr-defined]  # the adversarial rig's doubles
        answers["advocate"] = [advocate("ko").replace("one more service to run", NAMED)]
        answers["challenger"] = [challenger("ko").replace("E1 is real", f"E1 ({NAMED})")]
    return rig


def ledger(path: Path) -> Rig:
    rig = Rig(path, roster=TRIO, format="ledger", options=(*CONVERGE, *ON), max_rounds=2)
    for member in TRIO:
        rig.debaters[member.id].default = said(f"{member.id} ({NAMED})", 1)
    return rig


@pytest.mark.parametrize("build", [free, boardroom, adversarial, ledger])
async def test_anonymous_peers_no_brief_names_another_seat(
    tmp_path: Path, build: Callable[[Path], Rig]
) -> None:
    rig = build(tmp_path / "anon.sqlite3")
    try:
        debate = await run(rig)
        requests = [r for d in rig.debaters.values() for r in d.requests]
        assert len({r.participant for r in requests}) == len(debate.setup.roster)
        for request in requests:
            mine = letters(debate)[request.participant]
            assert request.prompt.endswith(f"{mine}입니다. 다른 토론자도 글자로 부르세요.\n")
            leaked = [n for n in others(debate, request.participant) if named(request.prompt, n)]
            leaked += makers_seen(request.prompt)
            assert not leaked, (debate.setup.format, request.participant, request.turn, leaked)
        first = min(requests, key=lambda r: r.turn)  # it reads no turn: no model named yet
        hidden = anonymize(NAMED, peer_names(debate, first.participant))
        assert hidden in first.prompt and hidden != NAMED
        assert "AGREE, agenda" in hidden  # a word that only contains `AG` keeps it
        # What people read keeps the names: the turns posted in the thread, the wiki's agenda.
        posted = [turn for kind, turn in rig.room.posted if kind == "turn"]
        assert any(named(t.text, t.seat) for t in posted)  # type: ignore[attr-defined]  # posted turns
        assert any(NAMED in text for _, _, text in rig.wiki.writes)
    finally:
        await rig.stop()


async def test_anonymous_peers_off_leaves_the_names(tmp_path: Path) -> None:
    rig = free(tmp_path / "named.sqlite3")
    rig.options = ()
    try:
        debate = await run(rig)
        prompts = [r.prompt for d in rig.debaters.values() for r in d.requests]
        assert all(NAMED in p for p in prompts) and debate.option("anonymous") == ""
    finally:
        await rig.stop()
