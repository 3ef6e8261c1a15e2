"""The boardroom's reply contracts as JSON Schemas, for a seat whose backend validates its
answer's shape itself (the claude CLI's `--json-schema`).

Each is the JSON object the round's prompt accepts (`prompts/boardroom/reply{1,2}.*.md`) with
exactly what `reply.missing_parts` asks of an answer: round 1 a vote, the argument, at least
two risks, the conditions and at least two metrics; round 2 the final vote, the strongest
agreement and disagreement, an insight and the condition for consensus (what changed the vote
optional). The advisor answers its prompt's object: the draft synthesis revised, and its review.
The vote is one of its words in the debate's language, as the prompt lists them."""

from __future__ import annotations

from typing import Any

from handlers.core.formats.boardroom.reply import MIN_LISTED
from handlers.core.formats.boardroom.schemas import AdvisorTaskReply
from handlers.core.reply.schema import WORDS, compact

# The vote words each language's prompt lists (reply1.<lang>.md), in its order.
VOTE_WORDS = {
    "en": ("YES", "NO", "CONDITIONAL"),
    "ko": ("찬성", "반대", "조건부"),
    "pt-BR": ("SIM", "NÃO", "CONDICIONAL"),
}
_FILLED: dict[str, Any] = {"type": "string", "minLength": 1, "pattern": r"\S"}


def _words(description: str) -> dict[str, Any]:
    return {**WORDS, "minLength": 1, "pattern": r"\S", "description": description}


def _listed(description: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": _FILLED,
        "minItems": MIN_LISTED,
        "description": description,
    }


def _vote(language: str, description: str) -> dict[str, Any]:
    return {"enum": list(VOTE_WORDS.get(language, VOTE_WORDS["en"])), "description": description}


def _object(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def position_schema(language: str) -> str:
    """Round 1: the member's position (JSON text)."""
    return compact(
        _object(
            {
                "vote": _vote(language, "Your vote on the decision."),
                "argument": _words("Your main argument: at most 3 paragraphs, 400-800 words."),
                "risks": _listed("The risks of your own position, one per item (at least 2)."),
                "conditions": _words("The conditions in which your position works / fails."),
                "metrics": _listed("The metrics to judge the decision, one per item (2 or more)."),
            }
        )
    )


def rebuttal_schema(language: str) -> str:
    """Round 2: the member's final vote after reading every position (JSON text)."""
    return compact(
        _object(
            {
                "final_vote": _vote(language, "Your final vote (you may change it)."),
                "why_changed": _words("If your vote changed: what convinced you."),
                "agreement": _words("Your strongest agreement: with whom and why (cite it)."),
                "disagreement": _words("Your strongest disagreement: with whom and why."),
                "insight": _words("A new insight that came from reading the others."),
                "consensus_condition": _words(
                    "The condition for consensus: what would have to be true for all to agree."
                ),
            },
            optional=("why_changed",),
        )
    )


def advisor_schema() -> str:
    """The advisor: the draft synthesis revised, with its review (JSON text). As the
    synthesis's own check holds it, a divided panel asks the people a question, any other
    gives a recommendation."""
    schema = AdvisorTaskReply.model_json_schema()
    schema["properties"]["review"] = _words(
        "What your review changed, or that it confirmed the draft; one sentence."
    )
    schema["additionalProperties"] = False
    schema["if"] = {"properties": {"irreconcilable": {"const": True}}}
    schema["then"] = {"properties": {"question": _FILLED}}
    schema["else"] = {"properties": {"recommendation": _FILLED}}
    return compact(schema)
