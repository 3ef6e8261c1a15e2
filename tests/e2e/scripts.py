"""The short scripted debate several end-to-end scenarios share: four turns, agreeing at the end."""

from __future__ import annotations

from tests.e2e.harness import World, contract

CLAUDE = ("Claude 첫째: LRU로 시작합시다.", "Claude 둘째: 3대 기준에 동의합니다.")
AG = ("AG 첫째: Redis가 안전합니다.", "AG 둘째: LRU로 시작하는 데 동의합니다.")
SETTINGS = {"MAX_ROUNDS": "2"}  # four turns: two each


def script(world: World) -> None:
    world.anthropic.script_replies(contract(CLAUDE[0]), contract(CLAUDE[1], "agree"))
    world.ag.replies = [contract(AG[0]), contract(AG[1], "agree")]
