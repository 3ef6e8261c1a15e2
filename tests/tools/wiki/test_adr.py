"""The ADR of a debate that reached no decision, and what each format's outcome makes of the
record's status: a stopped debate, one that hit its round limit, a divided panel, a rejected
proposition. Each still reads as a complete MADR record. The debates are the demo's recorded
ones, replayed through the real engine and store, then ended otherwise."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import replay
from bot.root.tables import Tables
from handlers.core.ending.state import Ending
from handlers.core.formats.base import with_output
from handlers.core.formats.boardroom.advisor import panel_ids
from handlers.core.formats.decision import Status
from handlers.core.i18n import Strings
from handlers.core.kinds import Outcome
from handlers.core.model import Debate, Turn
from handlers.core.record.chain import SCHEME, chain_head
from tests.bot.console.conftest import plain_console
from tests.tools.wiki.adr_support import check_complete, front_matter
from tools.wiki.adr import adr_markdown, adr_name


async def _debate(tmp_path: Path, name: str, language: str) -> tuple[Debate, tuple[Turn, ...]]:
    """A recorded debate of `name`, replayed to its end, with its stored turns."""
    recording = recording_for(name, language)
    result = await replay(plain_console(io.StringIO(), width=400), tmp_path, 0.0, recording)
    tables = await Tables.open(str(result.database))
    try:
        debate = result.debate
        return debate, await tables.store().last_turns(debate.id, debate.stored_turns)
    finally:
        await tables.close()


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
@pytest.mark.parametrize("outcome", [Outcome.MAX_ROUNDS, Outcome.STOPPED])
async def test_adr_of_a_debate_without_a_decision_is_proposed_and_chooses_nothing(
    tmp_path: Path, language: str, outcome: Outcome
) -> None:
    debate, turns = await _debate(tmp_path, "free", language)
    assert debate.ending.conclusion is not None
    ended = replace(debate, ending=replace(debate.ending, outcome=outcome))
    t = Strings(language)

    text = adr_markdown(ended, turns, t)

    assert front_matter(text)["status"] == "proposed"
    assert t("adr.status_line", status=t("adr.status_proposed")) in text
    bodies = check_complete(text, t)
    word = t(f"wiki.outcome.{outcome.value}")
    assert bodies["adr.outcome"].startswith(t("adr.none_chosen", outcome=word))
    assert t("adr.chosen", option="", because="").split("“")[0] not in text
    # What the moderator wrote is kept, as information, not as a decision taken.
    decision = " ".join(debate.ending.conclusion.decision.split())
    assert decision in " ".join(bodies["adr.more"].split())
    assert t(f"adr.ended_{outcome.value}") in bodies["adr.more"]


@pytest.mark.parametrize("name", ["free", "boardroom", "adversarial", "ledger"])
async def test_adr_of_a_debate_stopped_before_any_outcome_marks_each_section_not_applicable(
    tmp_path: Path, name: str
) -> None:
    debate, _ = await _debate(tmp_path, name, "ko")
    started = replace(
        debate,
        ending=Ending(outcome=Outcome.STOPPED),
        moderation=replace(debate.moderation, outputs=(), claims=()),
    )
    t = Strings("ko")

    text = adr_markdown(started, (), t)

    assert front_matter(text)["status"] == "proposed"
    bodies = check_complete(text, t)
    for key in ("adr.drivers", "adr.options", "adr.consequences", "adr.confirmation"):
        assert bodies[key] == t("adr.not_applicable"), key
    assert bodies["adr.pros_cons"] == t("adr.not_applicable")
    assert t("adr.ended_stopped") in bodies["adr.more"]


def _final_votes(debate: Debate, votes: tuple[str, ...]) -> Debate:
    """The panel's final (round-2) votes replaced, in panel order."""
    for seat, vote in zip(panel_ids(debate), votes, strict=False):
        debate = with_output(debate, f"vote/2/{seat}", vote)
    return debate


@pytest.mark.parametrize(
    ("votes", "status"),
    [
        (("yes", "yes", "yes"), Status.ACCEPTED),
        (("no", "no", "yes"), Status.REJECTED),
        (("yes", "no", "conditional"), Status.PROPOSED),
    ],
)
async def test_adr_status_follows_the_boardroom_vote(
    tmp_path: Path, votes: tuple[str, ...], status: Status
) -> None:
    debate, turns = await _debate(tmp_path, "boardroom", "en")
    assert len(panel_ids(debate)) == len(votes)
    t = Strings("en")

    text = adr_markdown(_final_votes(debate, votes), turns, t)

    assert front_matter(text)["status"] == status.value
    bodies = check_complete(text, t)
    chosen = bodies["adr.outcome"].startswith(t("adr.chosen", option="", because="")[:10])
    assert chosen is (status is not Status.PROPOSED)
    if status is Status.REJECTED:
        no = t("adr.chosen", option="NO —", because="").split("”")[0]
        assert bodies["adr.outcome"].startswith(no)


@pytest.mark.parametrize(("verdict", "status"), [("REJECT", "rejected"), ("ADOPT", "accepted")])
async def test_adr_status_follows_the_reconciler_s_verdict(
    tmp_path: Path, verdict: str, status: str
) -> None:
    debate, turns = await _debate(tmp_path, "adversarial", "pt-BR")
    answer = debate.output_of("answer:reconciler") or ""
    assert "[VERDICT] MODIFY" in answer
    ruled = with_output(
        debate, "answer:reconciler", answer.replace("[VERDICT] MODIFY", f"[VERDICT] {verdict}")
    )
    t = Strings("pt-BR")

    text = adr_markdown(ruled, turns, t)

    assert front_matter(text)["status"] == status
    assert f": {verdict}" in check_complete(text, t)["adr.outcome"]


async def test_adr_carries_the_chain_head_its_thread_and_its_pages_under_more_information(
    tmp_path: Path,
) -> None:
    debate, turns = await _debate(tmp_path, "ledger", "ko")
    t = Strings("ko")
    links = (("안건", "https://wiki.example/debates/1 x/agenda"),)
    thread = "https://discord.com/channels/1/2"

    text = adr_markdown(debate, turns, t, links=links, thread=thread)
    more = check_complete(text, t)["adr.more"]

    head = chain_head(debate, turns, t)  # the head its pages and export carry
    assert t("adr.chain_head", scheme=SCHEME, head=head) in more
    assert t("adr.thread", url=thread) in more
    assert "[안건](<https://wiki.example/debates/1 x/agenda>)" in more  # a space stays a link
    assert head not in adr_markdown(debate, turns[:-1], t)  # the head is of the turns it got


@pytest.mark.parametrize(
    ("topic", "name"),
    [
        (
            "결제 이벤트 전달 — Postgres outbox vs Redis Streams",
            "adr-7-결제-이벤트-전달-postgres-outbox-vs-redis-streams.md",
        ),
        ("Eventos: ¿outbox/Streams? (ação)", "adr-7-eventos-outbox-streams-ação.md"),
        ("../../etc/passwd", "adr-7-etc-passwd.md"),
        ("?!*", "adr-7.md"),
    ],
)
async def test_adr_file_name_is_safe_in_every_language(
    tmp_path: Path, topic: str, name: str
) -> None:
    debate, _ = await _debate(tmp_path, "free", "ko")
    named = replace(debate, id=7, proposal=replace(debate.proposal, topic=topic))
    assert adr_name(named) == name


async def test_adr_of_an_open_exploration_is_proposed_and_says_it_decided_nothing(
    tmp_path: Path,
) -> None:
    debate, turns = await _debate(tmp_path, "ledger", "en")
    options = (*(o for o in debate.setup.options if o[0] != "ledger.end"), ("ledger.end", "open"))
    explored = replace(debate, setup=replace(debate.setup, options=options))
    t = Strings("en")

    text = adr_markdown(explored, turns, t)

    assert front_matter(text)["status"] == "proposed"
    bodies = check_complete(text, t)
    assert bodies["adr.outcome"] == t("adr.explored")
    assert "**A1**" in bodies["adr.consequences"]  # what the exploration agreed on, kept
