"""The detection handler: rolling window, pre-filter, throttling, bots ignored, proposals."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta

import pytest

from handlers.core.model import ChatLine
from handlers.detection import DetectionHandler, DetectionLimits, asks_for_debate, looks_open
from handlers.ports import GatewayClaims
from handlers.rules_moderator import RulesModerator
from tests.doubles import FakeClock
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.builders import T0, chat
from tests.tools.gemini.conftest import MakeModerator
from tools.store.claims import DatabaseClaims, snowflake_at, wall_ms
from tools.store.db import Database

CHANNEL, OTHER, BOT_ID = 10, 20, 999
DEBATE_LINES = [
    "캐시를 Redis로 갈지 in-process LRU로 갈지 아직 못 정했네",
    "멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이…",
    "둘 다 장단점이 있어서 애매하다. 어느 쪽이 나을까",
    "should we decide this week? I'm not sure which one is better",
    "LRU 대신 Redis를 선택하면 비용이 늘어나",
]
SMALL_TALK = ["점심 뭐 먹지", "ㅋㅋㅋ", "오늘 날씨 좋네", "커피 마실 사람?", "nice", "ok 👍"]


class OpenTopics:
    """What the composition root would answer from its store: topics already proposed."""

    def __init__(self) -> None:
        self.topics: set[tuple[int, str]] = set()

    async def __call__(self, channel_id: int, topic: str) -> bool:
        return (channel_id, topic) in self.topics


def handler(
    moderator: object,
    clock: FakeClock,
    open_topics: OpenTopics,
    cooldown_s: float = 120,
    claims: GatewayClaims | None = None,
) -> DetectionHandler:
    return DetectionHandler(
        moderator,  # type: ignore[arg-type]  # a GeminiModerator or the rules fallback
        channels=(CHANNEL,),
        bot_user_id=BOT_ID,
        limits=DetectionLimits(cooldown_s, min_new_messages=4, min_confidence=0.7),
        clock=clock,
        has_open_topic=open_topics,
        claims=claims,
    )


async def test_a_busy_channel_makes_at_most_the_throttled_number_of_requests(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    clock, open_topics = FakeClock(T0), OpenTopics()
    detection = handler(make_moderator(), clock, open_topics)
    rng = random.Random(3)
    proposals = []
    for n in range(200):
        clock.t = T0 + timedelta(seconds=10 * n)  # a message every 10 s: 33 minutes in all
        text = rng.choice(DEBATE_LINES if n % 3 == 0 else SMALL_TALK)
        found = await detection.on_message(CHANNEL, chat(1 + n % 4, text, n / 6, 1000 + n), False)
        if found is not None:
            proposals.append(found)
            open_topics.topics.add((CHANNEL, found.topic))  # the root stores the proposal
    duration = 10 * 199
    throttled = duration // 120 + 1
    assert 1 <= len(fake.generate_requests) <= throttled
    assert len(fake.generate_requests) == detection.requests
    assert len(proposals) == 1  # the same topic is not proposed again while it is open
    assert proposals[0].channel_id == CHANNEL


async def test_two_gateway_processes_ask_about_one_chat_once(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    clock, first_id = FakeClock(T0), snowflake_at(wall_ms())  # ids as Discord gives them
    gateways = [
        handler(make_moderator(), clock, OpenTopics(), claims=DatabaseClaims(db)) for _ in "ab"
    ]
    found = []
    for n, text in enumerate(DEBATE_LINES[:4]):  # each process receives every message
        line = chat(1 + n % 2, text, n, first_id + n)
        found += [await detection.on_message(CHANNEL, line, False) for detection in gateways]
    assert len(fake.generate_requests) == 1  # both judged the fourth line; one asked
    assert [p is not None for p in found] == [False] * 6 + [True, False]


async def test_bots_and_the_bot_itself_never_count(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    clock = FakeClock(T0)
    detection = handler(make_moderator(), clock, OpenTopics(), cooldown_s=0)
    for n in range(50):
        clock.t = T0 + timedelta(minutes=n)
        line = chat(500 + n % 2, DEBATE_LINES[n % len(DEBATE_LINES)], n)
        assert await detection.on_message(CHANNEL, line, True) is None  # another bot
        own = chat(BOT_ID, DEBATE_LINES[n % len(DEBATE_LINES)], n)
        assert await detection.on_message(CHANNEL, own, False) is None  # the bot itself
    assert fake.generate_requests == []

    for n, text in enumerate(DEBATE_LINES[:4]):  # four human messages make a window
        await detection.on_message(CHANNEL, chat(1 + n % 2, text, 60 + n), False)
    [request] = fake.generate_requests
    assert "u500" not in request["text"] and f"u{BOT_ID}" not in request["text"]
    assert "u1: " in request["text"] and "u2: " in request["text"]


async def test_a_proposal_carries_the_people_and_the_window(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push(
        {
            "kind": "json",
            "obj": {
                "debate_worthy": True,
                "topic": "캐시 계층 선택",
                "question": "어떤 캐시?",
                "reason": "열린 결정",
                "confidence": 0.8,
            },
        }
    )
    detection = handler(make_moderator(), FakeClock(T0), OpenTopics())
    lines = [
        chat(1, DEBATE_LINES[0], 0),
        chat(2, DEBATE_LINES[1], 1),
        chat(1, DEBATE_LINES[2], 2),
        chat(3, DEBATE_LINES[3], 3),
    ]
    results = [await detection.on_message(CHANNEL, line, False) for line in lines]

    assert results[:3] == [None, None, None]
    proposal = results[3]
    assert proposal is not None
    assert (proposal.topic, proposal.question, proposal.confidence) == (
        "캐시 계층 선택",
        "어떤 캐시?",
        0.8,
    )
    assert proposal.people_ids == (1, 2, 3)
    assert proposal.context.splitlines()[0] == f"u1: {DEBATE_LINES[0]}"
    assert len(proposal.context.splitlines()) == 4


@pytest.mark.parametrize(
    ("verdict", "already_open"),
    [
        ({"debate_worthy": False, "confidence": 0.9}, False),
        ({"debate_worthy": True, "confidence": 0.5}, False),  # below DETECT_MIN_CONFIDENCE
        ({"debate_worthy": True, "confidence": 0.95}, True),  # the topic is already open
    ],
)
async def test_no_proposal_when_not_worthy_unsure_or_already_open(
    fake: FakeGemini, make_moderator: MakeModerator, verdict: dict, already_open: bool
) -> None:
    fake.push(
        {
            "kind": "json",
            "obj": {"topic": "캐시", "question": "어떤 캐시?", "reason": "r", **verdict},
        }
    )
    open_topics = OpenTopics()
    if already_open:
        open_topics.topics.add((CHANNEL, "캐시"))
    detection = handler(make_moderator(), FakeClock(T0), open_topics)
    results = [
        await detection.on_message(CHANNEL, chat(1 + n, DEBATE_LINES[n], n), False)
        for n in range(4)
    ]
    assert results == [None] * 4
    assert len(fake.generate_requests) == 1  # it was asked, and said no (or the topic was open)


async def test_small_talk_and_unwatched_channels_send_nothing(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    clock = FakeClock(T0)
    detection = handler(make_moderator(), clock, OpenTopics(), cooldown_s=0)
    for n in range(40):
        clock.t = T0 + timedelta(minutes=n)
        await detection.on_message(
            CHANNEL, chat(1 + n % 3, SMALL_TALK[n % len(SMALL_TALK)], n), False
        )
        await detection.on_message(OTHER, chat(1, DEBATE_LINES[n % len(DEBATE_LINES)], n), False)
    assert fake.generate_requests == []


async def test_a_redelivered_message_counts_once(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    detection = handler(make_moderator(), FakeClock(T0), OpenTopics())
    for _ in range(6):
        await detection.on_message(CHANNEL, chat(1, DEBATE_LINES[0], 0, message_id=77), False)
    await detection.on_message(CHANNEL, chat(2, DEBATE_LINES[1], 1, message_id=78), False)
    assert fake.generate_requests == []  # two distinct messages, not seven


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (DEBATE_LINES[:3], True),
        (
            [
                "Should we pick Postgres or SQLite for the new service?",
                "Not sure, let's decide with the pros and cons",
            ],
            True,
        ),
        (SMALL_TALK, False),
        (["Redis vs LRU"], False),  # too short to be a conversation
    ],
)
def test_the_local_pre_filter(texts: list[str], expected: bool) -> None:
    lines = [ChatLine(1, "u1", text, T0) for text in texts]
    assert looks_open(lines, len(lines)) is expected


EXPLICIT = [
    "캐시 계층 어떻게 할지 토론해 보자",
    "로그 보관 기간 토론 좀 해줘",
    "배포 주기 정하는 거 토론합시다",
    "let's debate Redis vs in-process LRU",
    "Can we discuss the retry policy?",
    "start a debate on the logging format",
]


@pytest.mark.parametrize("text", EXPLICIT)
async def test_one_message_asking_for_a_debate_proposes_it_at_once(
    fake: FakeGemini, make_moderator: MakeModerator, text: str
) -> None:
    fake.push(
        {
            "kind": "json",
            "obj": {
                "debate_worthy": True,
                "topic": "캐시 계층",
                "question": "어떤 캐시 계층을 쓸까?",
                "reason": "명시적으로 토론을 요청했습니다",
                "confidence": 0.9,
            },
        }
    )
    detection = handler(make_moderator(), FakeClock(T0), OpenTopics())
    proposal = await detection.on_message(CHANNEL, chat(1, text, 0, message_id=5), False)
    assert proposal is not None and proposal.topic == "캐시 계층"
    assert len(fake.generate_requests) == 1  # one moderator request, no command
    assert text in fake.generate_requests[0]["text"]


async def test_asking_again_and_again_makes_one_request_per_cooldown(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    clock = FakeClock(T0)
    detection = handler(make_moderator(), clock, OpenTopics())
    for n in range(5):
        clock.t = T0 + timedelta(seconds=10 * n)
        await detection.on_message(CHANNEL, chat(1, EXPLICIT[0], n / 6, message_id=n + 1), False)
    assert len(fake.generate_requests) == 1


async def test_each_not_worthy_verdict_doubles_the_cooldown_up_to_eight_times() -> None:
    clock = FakeClock(T0)
    detection = handler(RulesModerator(lambda key, **_: key), clock, OpenTopics())
    asked = []  # the seconds at which the moderator was asked
    for n in range(600):
        clock.t = T0 + timedelta(seconds=10 * n)
        before, text = detection.requests, DEBATE_LINES[n % len(DEBATE_LINES)]
        await detection.on_message(CHANNEL, chat(1 + n % 4, text, n / 6, 1000 + n), False)
        if detection.requests > before:
            asked.append(10 * n)
    gaps = [later - earlier for earlier, later in itertools.pairwise(asked)]
    assert gaps[:5] == [240, 480, 960, 960, 960]  # no debate found: twice the cooldown, up to 8x


@pytest.mark.parametrize(
    "text",
    ["어제 토론회 재밌었어", "the debate yesterday was fun", "토론이 길었다", "I discussed it"],
)
def test_talking_about_a_debate_is_not_asking_for_one(text: str) -> None:
    assert not asks_for_debate(text)
