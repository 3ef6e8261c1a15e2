"""The AutoGen side of bench/moderator_cost.py: SelectorGroupChat over the recorded debate.

autogen-agentchat (the `bench` extra) picks each next speaker with a model call whose prompt
holds the whole conversation so far. A recording model client counts each call's characters
and answers with the recorded next speaker; replay agents answer with the recorded replies.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.messages import BaseChatMessage, TextMessage
from autogen_agentchat.teams import SelectorGroupChat
from autogen_core import CancellationToken
from autogen_core.models import (
    ChatCompletionClient,
    CreateResult,
    LLMMessage,
    ModelInfo,
    RequestUsage,
)

NAMES = {"ag": "AG", "claude": "Claude"}


class ReplayAgent(BaseChatAgent):
    """A debater that answers with its recorded replies, in order."""

    def __init__(self, name: str, texts: list[str]) -> None:
        super().__init__(name, description=f"{name}, one of the two debaters")
        self._texts = deque(texts)

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        return (TextMessage,)

    async def on_messages(
        self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
    ) -> Response:
        return Response(chat_message=TextMessage(content=self._texts.popleft(), source=self.name))

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        return None


class RecordingClient(ChatCompletionClient):
    """Records each request's size in characters; answers with the recorded next speaker."""

    def __init__(self, order: list[str]) -> None:
        self.sizes: list[int] = []
        self._order = deque(order)

    async def create(self, messages: Sequence[LLMMessage], **kwargs: Any) -> CreateResult:
        chars = sum(len(m.content) for m in messages if isinstance(m.content, str))
        self.sizes.append(chars)
        return CreateResult(
            finish_reason="stop",
            content=self._order.popleft(),
            usage=RequestUsage(chars // 4, 2),
            cached=False,
        )

    def create_stream(
        self, messages: Sequence[LLMMessage], **kwargs: Any
    ) -> AsyncGenerator[str | CreateResult, None]:
        # SelectorGroupChat is run without streaming here; the interface still asks for this.
        raise NotImplementedError("the recording client does not stream")

    async def close(self) -> None:
        return None

    def actual_usage(self) -> RequestUsage:
        return RequestUsage(0, 0)

    def total_usage(self) -> RequestUsage:
        return RequestUsage(sum(self.sizes) // 4, 0)

    def count_tokens(self, messages: Sequence[LLMMessage], **kwargs: Any) -> int:
        return sum(len(str(m.content)) for m in messages) // 4

    def remaining_tokens(self, messages: Sequence[LLMMessage], **kwargs: Any) -> int:
        return 1_000_000

    @property
    def capabilities(self) -> Any:
        return self.model_info

    @property
    def model_info(self) -> ModelInfo:
        return ModelInfo(
            vision=False,
            function_calling=False,
            json_output=False,
            family="unknown",
            structured_output=False,
        )


async def autogen(turns: list[dict[str, Any]], task: str) -> list[int]:
    """The transcript through SelectorGroupChat; the input tokens of each selector call."""
    agents = [
        ReplayAgent(name, [str(t["text"]) for t in turns if NAMES[str(t["seat"])] == name])
        for name in ("AG", "Claude")
    ]
    client = RecordingClient([NAMES[str(t["seat"])] for t in turns])
    team = SelectorGroupChat(
        agents,
        model_client=client,
        allow_repeated_speaker=True,  # so the model is asked every turn, as our judge is
        termination_condition=MaxMessageTermination(len(turns) + 1),  # the task + every turn
    )
    await team.run(task=task)
    if len(client.sizes) != len(turns):
        raise RuntimeError(f"AutoGen selected {len(client.sizes)} times for {len(turns)} turns")
    return [size // 4 for size in client.sizes]
