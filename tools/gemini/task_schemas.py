"""A moderator task's answer, checked against the model its task request carries.

A task's model comes with the request (a format declares it beside the task, the engine sends
it): this adapter imports no format. It goes to Gemini as `response_schema` and to the CLI as a
JSON schema in the prompt. A text task (the adversarial probes and Validator answer by line
prefix) has none.
"""

from __future__ import annotations

import json

from pydantic import BaseModel

from tools.gemini.schemas import validated


def task_answer(
    text: str, parsed: object, schema: type[BaseModel] | None, json_only: bool
) -> tuple[str, str]:
    """(the output, why it cannot be used): a schema's answer validated and written back as
    exactly its fields; a JSON task without one any object; a text task any text."""
    text = _unwrapped(text)
    if schema is None:
        return text, _shape_error(text, json_only)
    answer, error = validated(text, parsed, schema)
    return (answer.model_dump_json() if answer is not None else text), error


def _shape_error(text: str, json_only: bool) -> str:
    """Why a task's answer cannot be used ('' if it can)."""
    if not text.strip():
        return "the answer was empty"
    if not json_only:
        return ""
    body = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    try:
        value = json.loads(body)
    except (RecursionError, ValueError) as exc:
        return f"not valid JSON: {exc!r}"
    return "" if isinstance(value, dict) else "not one JSON object"


def _unwrapped(text: str) -> str:
    """The answer inside a `{"text": "..."}` envelope, which a model may put around it."""
    try:
        value = json.loads(text)
    except (RecursionError, ValueError):
        return text
    if isinstance(value, dict) and list(value) == ["text"] and isinstance(value["text"], str):
        return value["text"]
    return text
