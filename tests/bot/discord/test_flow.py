"""The whole flow in one process: chat, card, refusal, approval, thread, turns, questions, stop."""

from __future__ import annotations

from pathlib import Path

from bot.discord.embeds import AMBER, GREY
from handlers.core.model import AG, CLAUDE, Action, Decision, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.doubles import asks, block
from tests.bot.discord.support import (
    THREADS,
    assert_refused,
    chat,
    check_no_pings,
    check_turns,
    click,
    custom_ids,
    keyed,
    posted_twice,
    prompt_of,
    status_edit,
    wait_card,
)
from tests.doubles import QUESTION, TOPIC
from tests.fakes.discord_limits import as_embed, visible_text
from tools.store.debates import SqliteStore

CLAUDE_TEXT = (
    "Claude ({n}): @everyone @here <@&{role}> 이 의견을 봐 주세요.\n\n"
    + "운영 부담을 먼저 따져야 합니다. " * 260
    + "\n```py\n"
    + "cache = LRU(maxsize=1024)  # 한 인스턴스\n" * 120
    + "```\n끝."
)


TURN_POST = "SELECT url FROM room_messages WHERE debate_id = ? AND key = ?"


async def test_chat_to_stop_through_discord(rig: BotRig, people: People) -> None:
    role = rig.fake.world.add_role("ops")
    rig.claude.enqueue(*(block(CLAUDE_TEXT.format(n=n, role=role["id"])) for n in range(3)))
    rig.moderator.decisions.extend(
        [
            Decision(action=Action.CONTINUE),
            asks(
                "운영팀이 Redis 클러스터를 관리할 수 있나요?",
                "운영 가능 @here",
                "운영 불가",
                "모르겠음",
            ),
            Decision(action=Action.CONTINUE),
            asks("캐시 무효화는 누가 책임지나요?", "백엔드", "플랫폼"),
        ]
    )
    await rig.start()
    assert rig.services is not None
    db = rig.services.db

    # chat -> detection -> the card (grey, Open / Not now)
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    embed = as_embed(card)
    assert embed["color"] == GREY.value and embed["title"] == KO("front.card_title")
    assert [f["value"] for f in embed["fields"][:2]] == [TOPIC, QUESTION]
    assert custom_ids(card) == [
        f"debate:format:{debate_id}",  # free or ledger (test_format_choice)
        f"debate:budget:{debate_id}",  # the round budget menu (test_budget)
        f"debate:option.anonymous:{debate_id}",  # every format's (test_anonymous_card)
        f"debate:open:{debate_id}",  # Open / Not now at the bottom of the card
        f"debate:decline:{debate_id}",
    ]
    assert [line.author_id for line in rig.moderator.windows[-1]] == [
        int(people.alice["id"]),
        int(people.carol["id"]),
    ]

    # bob was not in the conversation: refused, privately, and nothing changes
    calls_before = len(rig.fake.calls)
    await assert_refused(rig, card["id"], f"debate:open:{debate_id}", people.bob)
    assert (await rig.handler.get(debate_id)).phase is Phase.PROPOSED
    assert not rig.fake.calls_to("POST", THREADS)
    assert [c.route for c in rig.fake.calls[calls_before:]] == [
        "/interactions/{interaction_id}/{token}/callback"
    ]

    # alice opens it: the card says so and loses its buttons; a thread grows from it
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    assert kind == 6
    await rig.fake.wait_for_call("POST", THREADS)
    thread_id = card["id"]  # a thread made from a message has its id
    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드 1/3")
    )
    # Skip names the turn being answered: AG's turn 1
    assert custom_ids(status) == [
        f"debate:stop:{debate_id}",
        f"debate:skip:{debate_id}:1:{AG}",
        f"debate:steelman:{debate_id}",
    ]
    await rig.fake.wait_for_message(lambda m: m["channel_id"] == thread_id and m["type"] == 6)
    assert [mid for mid, _ in rig.fake.world.pins[thread_id]] == [status["id"]]
    closed = rig.fake.messages[card["id"]]
    assert custom_ids(closed) == []
    assert as_embed(closed)["description"] == KO(
        "front.card_speaking", user=f"<@{people.alice['id']}>"
    )

    # the first question: amber, with option buttons; bob is refused, carol's click counts
    question = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id and as_embed(m) and as_embed(m).get("color") == AMBER.value
        )
    )
    assert as_embed(question)["title"] == KO("front.question_title")
    # each button names the question it answers (question 1) and its option
    assert custom_ids(question) == [f"debate:answer:{debate_id}:1:{i}" for i in range(3)]
    await status_edit(rig, status["id"], "답을 기다리는 중")
    await assert_refused(rig, question["id"], f"debate:answer:{debate_id}:1:0", people.bob)
    kind, response = await click(
        rig, question["id"], f"debate:answer:{debate_id}:1:0", people.carol
    )
    # the option's label holds @here: the reply echoing it pings nobody (checked in click)
    assert kind == 4 and response["content"] == KO("front.answer_taken", answer="운영 가능 @here")
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and visible_text(m) == KO("user.answered", user="carol", answer="운영 가능 @here")
        )
    )

    # the second question is answered by typing in the thread (bob's typing does not count)
    second = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and as_embed(m)
            and as_embed(m).get("description") == "캐시 무효화는 누가 책임지나요?"
        )
    )
    assert second["id"] != question["id"]
    rig.ag.hold.update(range(5, 7))  # AG stays silent in round 3: the Stop comes mid-turn
    await rig.fake.user_message(people.bob, "플랫폼", channel_id=thread_id)
    await rig.fake.user_message(people.alice, "백엔드 팀이 맡습니다", channel_id=thread_id)
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and visible_text(m) == KO("user.answered", user="alice", answer="백엔드 팀이 맡습니다")
        )
    )
    assert not any(visible_text(m).startswith("🟧 bob") for m in rig.fake.messages_in(thread_id))

    # round 3: AG is asked and says nothing; the typing indicator shows; alice presses Stop
    await rig.ag.wait_prompt(5)
    await rig.fake.wait_for_call("POST", "/channels/{channel_id}/typing")
    await assert_refused(rig, status["id"], f"debate:stop:{debate_id}", people.bob)
    kind, _ = await click(rig, status["id"], f"debate:stop:{debate_id}", people.alice)
    assert kind == 6
    conclusion = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and as_embed(m)
            and as_embed(m).get("title") == KO("front.conclusion_title")
        )
    )
    assert as_embed(conclusion)["color"] == GREY.value
    final = await status_edit(rig, status["id"], KO("front.outcome_stopped"))
    assert visible_text(final).startswith("종료 · 중단됨 · 3라운드")
    assert custom_ids(final) == []
    assert (await rig.handler.get(debate_id)).phase is Phase.STOPPED

    # every turn in full, coloured by seat; both seats spoke; the answers reached the relay
    seats = await check_turns(rig, db, debate_id)
    assert len(seats) in (4, 5) and set(seats.values()) == {AG, CLAUDE}  # round 3: AG holds
    assert "운영 가능" in await prompt_of(rig, db, debate_id, 3)
    assert "백엔드 팀이 맡습니다" in await prompt_of(rig, db, debate_id, 5)
    relayed = await prompt_of(rig, db, debate_id, 2)  # Claude gets AG's reply verbatim
    assert (await SqliteStore(db).turn(debate_id, 1)).text in relayed
    assert len([m for m in rig.fake.messages_in(thread_id) if len(m["embeds"]) > 1]) >= 1
    # the thread reads as the debate: AG's raw messages and the relay prompts are gone, so
    # each reply shows once, as its embed
    in_thread = rig.fake.messages_in(thread_id)
    assert not [m for m in in_thread if m["author"]["id"] == str(rig.ag.user_id)]
    for turn, seat in seats.items():  # (a prompt whose answer the Stop cut off stays)
        if seat == AG:
            assert not [
                m for m in in_thread if f"[debate {debate_id} · turn {turn}]" in visible_text(m)
            ]
    gone = [m for m in rig.fake.world.deleted.values() if m["channel_id"] == thread_id]
    assert {m["author"]["id"] for m in gone} == {str(rig.ag.user_id), rig.fake.bot_user["id"]}

    # nobody was pinged by AI text; nothing was posted twice
    checked = check_no_pings(rig, {thread_id, rig.channel_id}, rig.ag.user_id)
    assert checked >= 15
    assert not await posted_twice(rig, db, debate_id, thread_id)
    keys = await keyed(db, debate_id)
    asked = {"question:1", "question:2"}  # each question under its number
    assert {"card", "thread", "status", "pinned", "conclusion", *asked} <= set(keys)

    # the pages are in the local wiki
    assert rig.services.wiki is not None
    await rig.services.wiki.drained(debate_id)
    folder = next((Path(rig.settings.LOCAL_WIKI_DIR) / "debates").iterdir())
    pages = {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.md")}
    assert {"agenda", "round-log", "conclusion"} <= set(pages)
    assert TOPIC in pages["agenda"]
    assert "in-process LRU로 시작하고" in pages["conclusion"]
    assert "AG turn" in pages["round-log"] and "운영 부담을 먼저" in pages["round-log"]
    # each section links its turn's first message: the link the room gave the engine
    first = await db.fetch_one(TURN_POST, (debate_id, "turn:1:0"))
    assert first is not None and first[0].startswith("https://discord.com/channels/")
    assert first[0] in pages["round-log"]
