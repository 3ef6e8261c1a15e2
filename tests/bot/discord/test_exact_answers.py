"""The people's answers count once, for the one who gave them, through the real
discord.py client against the fake Discord: a button names its question, so a press on an
answered question (from a client that still shows its buttons) answers no later one; the
answered question loses its buttons; of two answers at once the first wins and the second
person is told, privately and at once, who answered first."""

from __future__ import annotations

import asyncio
import copy

from bot.discord.embeds import AMBER
from handlers.core.admission import Admission
from handlers.core.events import ProposalDeclined, StopRequested
from handlers.core.model import Action, Actor, Decision, FailureKind, Phase
from handlers.ports import DebaterError
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.doubles import asks, block
from tests.bot.discord.support import EDIT, chat, click, custom_ids, wait_card
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_world import Json

FIRST = "오래된 캐시 항목은 어떻게 할까요?"
SECOND = "캐시 계층은 무엇으로 할까요?"


async def question(rig: BotRig, thread_id: str, text: str) -> Json:
    """The moderator's question `text` in the thread (amber, with its buttons)."""
    return await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("color") == AMBER.value
            and as_embed(m).get("description") == text
        ),
        timeout=30,
    )


async def closed(rig: BotRig, message_id: str) -> None:
    """The question's message was edited to hold no buttons."""
    await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: c.path.endswith(f"/messages/{message_id}") and custom_ids(c.json) == [],
    )


def private(response: Json) -> str:
    """The text of a reply only the clicking person sees."""
    assert response["flags"] & FLAG_EPHEMERAL
    return str(response["content"])


async def test_a_button_answers_its_own_question_and_the_first_of_two_wins(
    rig: BotRig, people: People
) -> None:
    rig.moderator.decisions.extend(
        [
            Decision(action=Action.CONTINUE),
            asks(FIRST, "유지", "Delete"),
            Decision(action=Action.CONTINUE),
            asks(SECOND, "Redis", "LRU"),
        ]
    )
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]

    # question 1: carol answers; its buttons go
    first = await question(rig, thread_id, FIRST)
    assert custom_ids(first) == [f"debate:answer:{debate_id}:1:{i}" for i in range(2)]
    as_shown = copy.deepcopy(first)  # as alice's client, which misses the edit, shows it
    _, response = await click(rig, first["id"], f"debate:answer:{debate_id}:1:0", people.carol)
    assert private(response) == KO("front.answer_taken", answer="유지")
    await closed(rig, first["id"])
    assert custom_ids(rig.fake.messages[first["id"]]) == []

    # question 2 is open; alice presses "Delete" on question 1 as her client still shows it:
    # refused, privately, saying who answered it and what is open now; nothing recorded
    second = await question(rig, thread_id, SECOND)
    assert custom_ids(second) == [f"debate:answer:{debate_id}:2:{i}" for i in range(2)]
    stale = f"debate:answer:{debate_id}:1:1"
    _, response = await click(rig, first["id"], stale, people.alice, shown=as_shown)
    assert private(response) == "\n".join(
        (
            KO("front.answered_already", number=1, user="carol", answer="유지"),
            KO("front.open_now", question=SECOND),
        )
    )
    waiting = await rig.handler.get(debate_id)
    assert waiting.phase is Phase.AWAITING_USER and waiting.question_number == 2
    assert [(a.who, a.text) for a in waiting.answers] == [("carol", "유지")]

    # alice "Redis" and carol "LRU" at the same moment: one answer counts, and the other
    # person is told at once that it was answered, and by whom
    (_, alices), (_, carols) = await asyncio.gather(
        click(rig, second["id"], f"debate:answer:{debate_id}:2:0", people.alice),
        click(rig, second["id"], f"debate:answer:{debate_id}:2:1", people.carol),
    )
    answers = (await rig.handler.get(debate_id)).answers
    assert len(answers) == 2
    winner = answers[1]
    told = {"alice": private(alices), "carol": private(carols)}
    assert told[winner.who] == KO("front.answer_taken", answer=winner.text)
    loser = "carol" if winner.who == "alice" else "alice"
    already = KO("front.answered_already", number=2, user=winner.who, answer=winner.text)
    assert told[loser].startswith(already + "\n")
    await closed(rig, second["id"])
    thread = [visible_text(m) for m in rig.fake.messages_in(thread_id)]
    assert thread.count(KO("user.answered", user=winner.who, answer=winner.text)) == 1
    pressed = {"alice": "Redis", "carol": "LRU"}
    assert winner.text == pressed[winner.who]
    assert KO("user.answered", user=loser, answer=pressed[loser]) not in thread

    alice = Actor(user_id=int(people.alice["id"]), name="alice")
    await rig.handler.submit(debate_id, StopRequested(alice))
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)


async def test_in_gateway_mode_the_second_of_two_answers_is_told_who_answered_first(
    rig: BotRig, people: People, postgres_url: str
) -> None:
    """Sharing the debates (PostgreSQL, the gateway's inbox): both answers pass the check
    against the stored debate before either is applied; the inbox keeps the first, and the
    second person is told at once that the question was answered, and by whom."""
    rig.overrides["DATABASE_URL"] = postgres_url
    rig.moderator.decisions.extend([Decision(action=Action.CONTINUE), asks(SECOND, "Redis", "LRU")])
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    asked = await question(rig, card["id"], SECOND)

    (_, alices), (_, carols) = await asyncio.gather(
        click(rig, asked["id"], f"debate:answer:{debate_id}:1:0", people.alice),
        click(rig, asked["id"], f"debate:answer:{debate_id}:1:1", people.carol),
    )
    pressed = {"alice": "Redis", "carol": "LRU"}
    said = {KO("user.answered", user=who, answer=text): who for who, text in pressed.items()}
    shown = await rig.fake.wait_for_message(lambda m: visible_text(m) in said, timeout=30)
    winner = said[shown["content"]]
    loser = "carol" if winner == "alice" else "alice"
    told = {"alice": private(alices), "carol": private(carols)}
    assert told[winner] == KO("front.answer_taken", answer=pressed[winner])
    assert told[loser] == KO(
        "front.answered_already", number=1, user=winner, answer=pressed[winner]
    )
    await closed(rig, asked["id"])
    stored = await rig.handler.get(debate_id)
    assert [(a.who, a.text) for a in stored.answers] == [(winner, pressed[winner])]
    thread = [visible_text(m) for m in rig.fake.messages_in(card["id"])]
    assert KO("user.answered", user=loser, answer=pressed[loser]) not in thread

    alice = Actor(user_id=int(people.alice["id"]), name="alice")
    await rig.handler.submit(debate_id, StopRequested(alice))
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)


async def test_in_gateway_mode_of_two_opens_at_once_the_second_is_told_who_decided(
    rig: BotRig, people: People, postgres_url: str
) -> None:
    """alice presses Open and carol Not now at the same moment, sharing the debates: the card
    takes the first, and the other person is told, privately, who decided it."""
    rig.overrides["DATABASE_URL"] = postgres_url
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await asyncio.gather(
        click(rig, card["id"], f"debate:open:{debate_id}", people.alice),
        click(rig, card["id"], f"debate:decline:{debate_id}", people.carol),
    )
    told = {KO("front.decided_already", user=who): who for who in ("alice", "carol")}
    notice = await rig.fake.wait_for_message(lambda m: visible_text(m) in told, timeout=30)
    assert notice["flags"] & FLAG_EPHEMERAL
    winner = told[notice["content"]]
    closed_as = {
        KO("front.card_speaking", user=f"<@{people.alice['id']}>"): "alice",
        KO("front.card_declined", user=f"<@{people.carol['id']}>"): "carol",
    }

    def described(call: Json) -> str:
        return str(as_embed(call or {}).get("description"))

    edit = await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: c.path.endswith(f"/messages/{card['id']}") and described(c.json) in closed_as,
    )
    assert closed_as[described(edit.json)] == winner  # the card took the first one's click
    assert len([m for m in rig.fake.messages.values() if visible_text(m) in told]) == 1
    if winner == "alice":
        alice = Actor(user_id=int(people.alice["id"]), name="alice")
        await rig.handler.submit(debate_id, StopRequested(alice))
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)


async def test_in_gateway_mode_a_click_after_the_card_was_decided_is_told_who_decided(
    rig: BotRig, people: People, postgres_url: str
) -> None:
    """carol's Not now arrives once alice's Open has been applied (the card already says so):
    she is told that alice decided it, not only that it is not the time."""
    rig.overrides["DATABASE_URL"] = postgres_url
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    opened = KO("front.card_speaking", user=f"<@{people.alice['id']}>")
    await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: (
            c.path.endswith(f"/messages/{card['id']}")
            and as_embed(c.json or {}).get("description") == opened
        ),
    )
    # The buttons are gone once the card says so; a click sent before that lands here:
    carol = Actor(user_id=int(people.carol["id"]), name="carol")
    front = rig.bot.front  # type: ignore[union-attr]  # set once the bot is started
    done = await front._engine.submit(debate_id, ProposalDeclined(carol))
    assert done.admission is Admission.ANSWERED
    assert front._not_taken(done) == KO("front.decided_already", user="alice")
    alice = Actor(user_id=int(people.alice["id"]), name="alice")
    await rig.handler.submit(debate_id, StopRequested(alice))
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)


async def test_in_gateway_mode_of_two_clicks_at_once_on_a_limit_pause_the_second_is_told_who(
    rig: BotRig, people: People, postgres_url: str
) -> None:
    """Claude's usage limit pauses the debate; alice presses Resume and carol Conclude at the
    same moment, sharing the debates: one is applied, and the other person is told, privately,
    who answered the pause first (neither is dropped without a word)."""
    rig.overrides["DATABASE_URL"] = postgres_url
    rig.claude.default = block("Claude: LRU로 충분합니다.")
    rig.claude.enqueue(DebaterError(FailureKind.LIMIT, "You've hit your limit", 3600))
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    pause = await rig.fake.wait_for_message(
        lambda m: any("debate:resume:" in i for i in custom_ids(m)), timeout=30
    )
    resume, conclude = (i for i in custom_ids(pause) if ":resume:" in i or ":conclude:" in i)
    await asyncio.gather(
        click(rig, pause["id"], resume, people.alice),
        click(rig, pause["id"], conclude, people.carol),
    )
    told = {KO("front.decided_already", user=who): who for who in ("alice", "carol")}
    notice = await rig.fake.wait_for_message(lambda m: visible_text(m) in told, timeout=30)
    assert notice["flags"] & FLAG_EPHEMERAL
    winner = told[notice["content"]]  # the one the loser is told of
    loser = "carol" if winner == "alice" else "alice"
    said = {
        "alice": KO("limits.resumed_by", user="alice"),
        "carol": KO("budget.concluded", user="carol"),
    }
    await rig.fake.wait_for_message(lambda m: visible_text(m) == said[winner], timeout=30)
    thread = [visible_text(m) for m in rig.fake.messages_in(card["id"])]
    assert said[loser] not in thread
    assert len([m for m in rig.fake.messages.values() if visible_text(m) in told]) == 1
    if winner == "alice":
        alice = Actor(user_id=int(people.alice["id"]), name="alice")
        await rig.handler.submit(debate_id, StopRequested(alice))
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
