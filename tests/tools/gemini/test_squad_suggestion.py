"""The moderator suggests the boardroom's squad on detection (seed 000: a squad by the kind of
decision, at most five), through the real google-genai SDK against the fake Gemini: the prompt
lists the configured members, the kind, squad and reason reach the proposal (the card), and the
response schema caps the squad at five (a sixth is refused and repaired)."""

from __future__ import annotations

import json

from handlers.core.participants import parse_roster
from tests.doubles import FakeClock
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.builders import T0, chat
from tests.tools.gemini.conftest import MakeModerator
from tests.tools.gemini.test_detection import CHANNEL, DEBATE_LINES, OpenTopics, handler
from tests.tools.gemini.test_format_suggestion import VERDICT
from tools.gemini.schemas import DetectionReply

POOL = parse_roster(
    "arch:claude-cli:Ana:architect,sec:claude-cli:Sol:security reviewer,"
    "po:claude-cli:Pia:product owner,ops:claude-cli:Otto:operator,fin:claude-cli:Fay:finance,"
    "law:claude-cli:Lu:legal counsel,ux:claude-cli:Uma:designer"
)
WHY = "설계와 운영을 아는 위원이 필요한 결정"


async def _propose(fake: FakeGemini, make_moderator: MakeModerator, *replies: dict) -> object:
    """Four lines of chat to a moderator that knows POOL, which answers `replies` in turn."""
    fake.push(*({"kind": "json", "obj": reply} for reply in replies))
    detection = handler(make_moderator(members=POOL), FakeClock(T0), OpenTopics())
    lines = [chat(n % 3 + 1, DEBATE_LINES[n], n) for n in range(4)]
    return [await detection.on_message(CHANNEL, line, False) for line in lines][-1]


async def test_the_squad_its_kind_and_reason_reach_the_proposal(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    verdict = VERDICT | {
        "suggested_format": "boardroom",
        "decision_kind": "architecture",
        "squad": ["arch", "ops", "sec"],
        "squad_reason": WHY,
    }
    proposal = await _propose(fake, make_moderator, verdict)
    assert getattr(proposal, "squad", None) == ("arch", "ops", "sec")
    assert getattr(proposal, "squad_kind", None) == "architecture"
    assert getattr(proposal, "squad_reason", None) == WHY
    request = fake.generate_requests[-1]
    assert "`law`: Lu (legal counsel)" in request["text"]  # the pool it picks from
    config = request["json"]["generationConfig"]
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    squad = schema["properties"]["squad"]
    assert squad.get("maxItems", squad.get("max_items")) in (5, "5")


async def test_a_squad_over_five_is_refused_and_asked_again(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    six = ["arch", "sec", "po", "ops", "fin", "law"]
    proposal = await _propose(
        fake,
        make_moderator,
        VERDICT | {"squad": six, "squad_reason": WHY},
        VERDICT | {"squad": six[:5], "squad_reason": WHY},
    )
    assert getattr(proposal, "squad", None) == tuple(six[:5])
    repair = fake.generate_requests[-1]["text"]
    assert "squad" in repair and "5" in repair  # the schema's limit, quoted back


def test_the_schema_caps_the_squad_at_five() -> None:
    reply = VERDICT | {"squad": ["a", "b", "c", "d", "e", "f"]}
    assert DetectionReply.model_json_schema()["properties"]["squad"]["maxItems"] == 5
    try:
        DetectionReply.model_validate_json(json.dumps(reply))
    except ValueError as exc:
        assert "squad" in str(exc)
    else:
        raise AssertionError("six members passed the schema")
