"""A debate's pending effects as its row holds them: a JSON list of [id, effect], in run order.

The queue is written in the same statement as the step that changed it (see `SqliteStore`),
so each effect is serialized once, when it is queued, and its JSON kept beside it.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from handlers.core.effects import EFFECT_ADAPTER, Effect
from tools.store.json_text import storable


@dataclass(frozen=True)
class Queued:
    """One pending effect: its id (per debate, ascending), the effect, and its JSON."""

    id: int
    effect: Effect
    json: str = field(compare=False)  # how the effect is written (its pydantic JSON)


@dataclass(frozen=True)
class EffectQueue:
    """A debate's pending effects and the last id given out."""

    seq: int = 0
    items: tuple[Queued, ...] = ()

    @classmethod
    def parse(cls, text: str, seq: int) -> EffectQueue:
        """The queue from its column (`effects`) and `effect_seq`."""
        items = []
        for effect_id, payload in json.loads(text):
            effect = EFFECT_ADAPTER.validate_python(payload)
            items.append(Queued(int(effect_id), effect, storable(EFFECT_ADAPTER, effect)))
        return cls(max(seq, *(i.id for i in items), 0), tuple(items))

    def text(self) -> str:
        """The column's value."""
        return "[" + ",".join(f"[{item.id},{item.json}]" for item in self.items) + "]"

    def step(self, done: Collection[int], added: Sequence[Effect]) -> EffectQueue:
        """Without the effects in `done`, with `added` at the end under new ids."""
        kept = tuple(item for item in self.items if item.id not in done)
        new = tuple(
            Queued(self.seq + n, effect, storable(EFFECT_ADAPTER, effect))
            for n, effect in enumerate(added, start=1)
        )
        return EffectQueue(self.seq + len(new), kept + new)

    def head(self, limit: int) -> list[tuple[int, Effect]]:
        """The oldest `limit` effects."""
        return [(item.id, item.effect) for item in self.items[:limit]]
