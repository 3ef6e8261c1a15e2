"""Each format's reply contract as a JSON Schema: its recorded demo answers fit it, an answer
lacking a required part does not, and what the schema lets through the format's parser reads
as a whole answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from handlers.core.formats.adversarial import contract
from handlers.core.formats.adversarial.reply_schema import REPLY, ROLE_PREFIXES, role_schema
from handlers.core.formats.boardroom.reply import (
    ROUND1_FIELDS,
    VOTES,
    Position,
    missing_parts,
    parse_contract,
    parse_position,
)
from handlers.core.formats.boardroom.reply_schema import (
    VOTE_WORDS,
    advisor_schema,
    position_schema,
    rebuttal_schema,
)
from handlers.core.formats.ledger import confirm as ledger_confirm
from handlers.core.formats.ledger import text as ledger_text
from handlers.core.formats.ledger.reply_schema import confirm_schema, turn_schema
from handlers.core.reply.parser import parse_reply, task_object
from handlers.core.reply.schema import REPLY_SCHEMA_JSON, text_only, words_fields

FORMATS = Path(__file__).resolve().parents[3] / "handlers" / "core" / "formats"
LANGUAGES = ("en", "ko", "pt-BR")


def demo_turns(name: str, language: str) -> list[dict[str, Any]]:
    data = json.loads((FORMATS / name / "demo" / f"{language}.json").read_text())
    turns: list[dict[str, Any]] = data["turns"]
    return turns


def validator(schema_json: str) -> Draft7Validator:
    """A validator of draft 7, the one the CLI's validator (Ajv's default) follows."""
    schema = json.loads(schema_json)
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def as_object(found: Position, round_number: int, language: str) -> dict[str, Any]:
    """A numbered answer as the JSON object its round's prompt accepts."""
    assert found.vote is not None
    vote = VOTE_WORDS[language][VOTES.index(found.vote)]
    if round_number == 1:
        values = {name: getattr(found, name) for name in ROUND1_FIELDS}
        return {**values, "vote": vote, "risks": list(found.risks), "metrics": list(found.metrics)}
    answer = {
        "final_vote": vote,
        "agreement": found.agreement,
        "disagreement": found.disagreement,
        "insight": found.insight,
        "consensus_condition": found.consensus,
    }
    return answer | ({"why_changed": found.why_changed} if found.why_changed else {})


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_boardroom_s_demo_answers_fit_their_round_s_schema(language: str) -> None:
    seats = [t for t in demo_turns("boardroom", language) if t["seat"] != "advisor"]
    schemas = {1: validator(position_schema(language)), 2: validator(rebuttal_schema(language))}
    for number, turn in enumerate(seats):
        round_number = 1 if number < len(seats) // 2 else 2
        found = parse_position(turn["reply"], round_number)
        answer = as_object(found, round_number, language)
        assert not list(schemas[round_number].iter_errors(answer)), turn["turn"]
        # What the schema let through reads back as the same position, nothing lacking.
        text = json.dumps(answer, ensure_ascii=False)
        assert parse_position(text, round_number) == found
        assert missing_parts(parse_position(text, round_number), round_number) == ()
        lacking = {key: value for key, value in answer.items() if key != "insight"}
        if round_number == 1:
            lacking = answer | {"risks": answer["risks"][:1]}  # the seed asks two at least
        assert list(schemas[round_number].iter_errors(lacking)), turn["turn"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_boardroom_advisor_s_demo_review_fits_its_schema(language: str) -> None:
    (turn,) = [t for t in demo_turns("boardroom", language) if t["seat"] == "advisor"]
    schema = validator(advisor_schema())
    answer = task_object(turn["reply"])
    assert not list(schema.iter_errors(answer))
    assert list(schema.iter_errors({k: v for k, v in answer.items() if k != "review"}))
    # A panel that is not divided owes a recommendation.
    assert list(schema.iter_errors(answer | {"irreconcilable": False, "recommendation": ""}))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_adversarial_demo_answers_fit_their_role_s_schema_as_written(language: str) -> None:
    turns = demo_turns("adversarial", language)
    roles = ("advocate", "challenger", "reconciler")
    for turn in turns:
        role = next(r for r in roles if not contract.missing(turn["reply"], ROLE_PREFIXES[r]))
        schema_json = role_schema(role)
        assert text_only(schema_json) == REPLY  # the record is the wrapped text itself
        schema = validator(schema_json)
        assert not list(schema.iter_errors({REPLY: turn["reply"]})), (role, turn["turn"])
        # Any required prefix taken away, or left empty, is refused, as the parser lacks it.
        for prefix in ROLE_PREFIXES[role]:
            body = contract.sections(turn["reply"])[prefix]
            emptied = turn["reply"].replace(body, "", 1)
            assert contract.missing(emptied, ROLE_PREFIXES[role]) == (f"[{prefix}]",)
            assert list(schema.iter_errors({REPLY: emptied})), (role, prefix)
        assert list(schema.iter_errors({})), "the reply itself is required"


@pytest.mark.parametrize(
    ("alternative", "refused"),
    [
        *[(said, True) for said in ("none", "N/A.", "—", "No alternative", "nothing")],
        ("Keep the outbox; deliver with Redis Streams.", False),
        ("none of E1's cost", False),
    ],
)
def test_a_challenger_without_an_alternative_is_refused_as_the_parser_refuses_it(
    alternative: str, refused: bool
) -> None:
    (turn,) = [
        t
        for t in demo_turns("adversarial", "en")
        if not contract.missing(t["reply"], ROLE_PREFIXES["challenger"])
    ]
    given = contract.sections(turn["reply"])["ALTERNATIVE"]
    text = turn["reply"].replace(given, alternative, 1)
    assert bool(contract.negated(text)) is refused
    schema = validator(role_schema("challenger"))
    assert bool(list(schema.iter_errors({REPLY: text}))) is refused


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ledger_s_demo_answers_fit_its_turn_or_confirmation_schema(language: str) -> None:
    schemas = {"turn": validator(turn_schema()), "confirm": validator(confirm_schema())}
    for turn in demo_turns("ledger", language):
        answer = task_object(turn["reply"])
        kind = "confirm" if "confirmed" in answer else "turn"
        assert not list(schemas[kind].iter_errors(answer)), turn["turn"]
        required = ledger_text.CONTRACT if kind == "turn" else ledger_confirm.CONFIRM_CONTRACT
        for name in required:  # each part the format's reader asks for is required
            assert list(schemas[kind].iter_errors({k: v for k, v in answer.items() if k != name}))
    assert words_fields(turn_schema()) == words_fields(confirm_schema()) == ("opinion",)


def test_a_confirmation_the_ledger_s_schema_lets_through_reads_whole() -> None:
    """The demos hold no confirmation round (one-party recordings): an answer as its prompt
    asks for it fits, one without `confirmed` does not."""
    schema = validator(confirm_schema())
    answer = {"opinion": "A1 stands; A2 needs a bound.", "confirmed": ["A1"], "amended": {"A2": ""}}
    answer["amended"] = {"A2": "at most two approvals"}
    assert not list(schema.iter_errors(answer))
    assert not list(schema.iter_errors(answer | {"amended": {}}))
    assert list(schema.iter_errors({k: v for k, v in answer.items() if k != "confirmed"}))
    assert list(schema.iter_errors(answer | {"amended": {"A2": 3}}))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_json_contract_s_demo_answers_fit_its_schema(language: str) -> None:
    schema = validator(REPLY_SCHEMA_JSON)
    for turn in demo_turns("free", language):
        answer = task_object(turn["reply"])
        assert not list(schema.iter_errors(answer)), turn["turn"]
        assert parse_reply(json.dumps(answer)).opinion == answer["opinion"]
        assert list(schema.iter_errors({k: v for k, v in answer.items() if k != "opinion"}))


def test_the_words_each_schema_shows_live() -> None:
    assert words_fields(REPLY_SCHEMA_JSON) == ("opinion",)
    assert words_fields(position_schema("en"))[0] == "argument"
    assert words_fields(role_schema("advocate")) == (REPLY,)
    assert role_schema("validator") == ""  # the moderator's light roles have none


def test_a_boardroom_answer_in_json_reads_as_its_numbered_parts_with_every_value() -> None:
    answer = {
        "vote": "조건부",
        "argument": "첫 문단.\n\n둘째 문단, `code` 그대로.",
        "risks": ["위험 하나", "위험 둘"],
        "conditions": "통하는 조건 / 실패하는 조건",
        "metrics": ["지표 하나", "지표 둘"],
    }
    parsed = parse_contract(json.dumps(answer, ensure_ascii=False))
    assert parsed.structured
    assert parsed.opinion.startswith("1. 조건부\n2. 첫 문단.")
    assert "3.\n- 위험 하나\n- 위험 둘\n4." in parsed.opinion
    for value in (answer["argument"], answer["conditions"], *answer["risks"], *answer["metrics"]):
        assert value in parsed.opinion
