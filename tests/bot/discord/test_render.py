"""Turns as embeds: colours, author and footer, the whole opinion, Discord's limits, no pings."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord.render import turn_messages
from bot.formatting import AG_GREEN, CLAUDE_BLUE
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, ParsedReply, Question, Stance, Turn, TurnMeta
from handlers.core.reply.parser import parse_reply
from tests.bot.discord.pieces import join_pieces
from tests.fakes.discord_limits import validate_message
from tests.fakes.fake_discord import FakeDiscord

COLOUR_AG, COLOUR_CLAUDE = discord.Colour(AG_GREEN), discord.Colour(CLAUDE_BLUE)
KO = Strings("ko")
EN = Strings("en")


def make_turn(text: str, seat: str = CLAUDE, number: int = 1, **meta: object) -> Turn:
    """A stored turn as the engine builds it (the parsed reply from the real parser)."""
    defaults: dict[str, object] = {
        "model": "sonnet",
        "input_tokens": 1000,
        "output_tokens": 240,
        "cost_usd": 0.0213,
        "latency_s": 41.2,
    }
    defaults.update(meta)
    return Turn(
        debate_id=7,
        number=number,
        round=1,
        seat=seat,
        text=text,
        raw=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        parsed=parse_reply(text),
        meta=TurnMeta(**defaults),  # type: ignore[arg-type]  # the test's TurnMeta fields
        at=datetime(2025, 1, 1, tzinfo=UTC),
    )


def descriptions(messages: list[list[discord.Embed]], *, title: str | None = None) -> list[str]:
    """The description pieces of the embeds that carry the opinion (not the question)."""
    out: list[str] = []
    in_question = False
    for message in messages:
        for embed in message:
            if embed.title and embed.title != title:
                in_question = True
            if not in_question and embed.description is not None:
                out.append(embed.description)
    return out


def assert_within_limits(messages: list[list[discord.Embed]]) -> None:
    for message in messages:
        validate_message({"embeds": [embed.to_dict() for embed in message]})


def test_claude_turn_is_blue_with_author_and_footer() -> None:
    turn = make_turn("Redis가 맞습니다.")
    (message,) = turn_messages(turn, KO)
    (embed,) = message
    assert embed.colour == COLOUR_CLAUDE
    assert embed.author.name == "Claude Code (sonnet)"
    assert embed.description == "Redis가 맞습니다."
    assert embed.footer.text == f"턴 1 · 1,240 토큰 · $0.02 · 41초 · sha256 {turn.sha256[:12]}"


def test_ag_turn_is_green_and_leaves_out_unknown_figures() -> None:
    turn = make_turn(
        "LRU로 충분합니다.",
        seat=AG,
        number=2,
        model="gemini-pro (AG)",
        input_tokens=0,
        output_tokens=0,
        cost_usd=0.0,
        latency_s=125,
    )
    embed = turn_messages(turn, KO)[0][0]
    assert embed.colour == COLOUR_AG
    assert embed.author.name == "AG (gemini-pro (AG))"
    assert embed.footer.text == f"턴 2 · 2분 5초 · sha256 {turn.sha256[:12]}"


def test_english_footer_and_stance() -> None:
    text = 'Agreed.\n```json\n{"opinion": "Agreed in part.", "stance": "partial"}\n```'
    turn = make_turn(text)
    embed = turn_messages(turn, EN)[0][0]
    assert embed.description == "Agreed.\n\nAgreed in part."
    assert embed.footer.text == (
        f"turn 1 · 1,240 tokens · $0.02 · 41s · stance: partly agree · sha256 {turn.sha256[:12]}"
    )


def test_structured_reply_shows_the_opinion_and_the_question_not_the_block() -> None:
    text = (
        'Prose first.\n{"opinion": "The full argument.", "stance": "disagree",'
        ' "question": {"to": "opponent", "text": "What about failover?"}}'
    )
    turn = make_turn(text, seat=AG)
    messages = turn_messages(turn, KO)
    embeds = [e for m in messages for e in m]
    assert embeds[0].description == "Prose first.\n\nThe full argument."
    assert embeds[-1].title == "❓ Claude Code에게 묻는 질문"
    assert embeds[-1].description == "What about failover?"
    assert embeds[-1].footer.text.startswith("턴 1")
    assert all('"stance"' not in (e.description or "") for e in embeds)


def test_unstructured_reply_is_posted_whole() -> None:
    text = "no block here {not json}\n" * 3
    turn = make_turn(text)
    assert not turn.parsed.structured
    assert join_pieces(descriptions(turn_messages(turn, KO))) == text


def test_a_question_to_the_people_has_its_own_title() -> None:
    turn = make_turn("x")
    parsed = ParsedReply("x", question=Question("user", "Can ops run Redis?"), stance=Stance.AGREE)
    turn = Turn(**{**turn.__dict__, "parsed": parsed})
    embeds = [e for m in turn_messages(turn, KO) for e in m]
    assert embeds[-1].title == "❓ 사람들에게 묻는 질문"


long_texts = st.lists(
    st.sampled_from(
        [
            "para " * 40 + "\n\n",
            "```py\n" + "x = 1\n" * 50 + "```\n",
            "긴 " * 300,
            "y" * 5000,
            "\n",
            "@everyone ",
        ]
    ),
    min_size=1,
    max_size=30,
).map("".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=long_texts, seat=st.sampled_from([AG, CLAUDE]))
def test_any_reply_fits_discord_and_loses_nothing(text: str, seat: str) -> None:
    turn = make_turn(text, seat=seat)
    messages = turn_messages(turn, KO)
    assert_within_limits(messages)
    body = turn.parsed.opinion if turn.parsed.structured else turn.text
    assert join_pieces(descriptions(messages)) == body
    assert all(
        e.colour == (COLOUR_AG if seat == AG else COLOUR_CLAUDE) for m in messages for e in m
    )
    assert messages[0][0].author.name is not None
    assert sum(1 for m in messages for e in m if e.footer.text) == 1


async def test_a_long_turn_posted_for_real_is_accepted_whole_and_pings_nobody(
    fake: FakeDiscord, client: discord.Client
) -> None:
    role = fake.world.add_role("ops")
    person = fake.add_user("alice")
    hostile = f"@everyone @here <@&{role['id']}> <@{person['id']}> "
    paragraph = hostile + "가나다 " * 200 + "\n\n"
    text = paragraph * 20 + "```json\n" + '{"k": 1}\n' * 900 + "```\n" + paragraph * 5
    turn = make_turn(text, seat=AG)
    channel = client.get_channel(int(fake.text_channel["id"]))
    assert isinstance(channel, discord.TextChannel)
    sent = []
    for embeds in turn_messages(turn, KO):
        sent.append(
            await channel.send(embeds=embeds, allowed_mentions=discord.AllowedMentions.none())
        )
    assert len(sent) >= 5
    stored = [fake.messages[str(m.id)] for m in sent]
    pieces = [e["description"] for m in stored for e in m["embeds"]]
    assert join_pieces(pieces) == text
    assert all(e["color"] == COLOUR_AG.value for m in stored for e in m["embeds"])
    for message in stored:
        assert fake.allowed_mentions[message["id"]] == {"parse": []}
        assert not fake.world.was_pinged(message["id"])


def test_fields_the_contract_does_not_use_get_their_own_embed() -> None:
    text = '{"opinion": "본론", "sources": ["RFC 9111"], "opinion": "둘째"}'
    messages = turn_messages(make_turn(text), KO)
    titled = [e for m in messages for e in m if e.title == KO("discord.other_fields")]
    assert len(titled) == 1 and titled[0].description is not None
    assert "RFC 9111" in titled[0].description and "opinion: 본론" in titled[0].description
    assert_within_limits(messages)
