"""The convergence meter through the real discord.py client: the status line shows the
moderator's consensus estimates as a trend; when they stay high without a conclusion the
people get Declare consensus / One more round / Conclude as is, authorized people only, and
the buttons outlive a restart."""

from __future__ import annotations

from handlers.core.model import Action, Decision, Outcome, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import (
    THREADS,
    assert_refused,
    chat,
    click,
    custom_ids,
    posted_twice,
    status_edit,
    wait_card,
)
from tests.fakes.discord_limits import as_embed, visible_text


def estimate(value: float) -> Decision:
    return Decision(action=Action.CONTINUE, consensus=value, summary=f"at {value}")


async def test_convergence_meter_and_declared_consensus(rig: BotRig, people: People) -> None:
    rig.overrides["BUDGET_PAUSE"] = True
    rig.moderator.decisions.extend([estimate(v) for v in (0.5, 0.6, 0.85, 0.9)])
    await rig.start()
    assert rig.services is not None
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    assert kind == 6
    await rig.fake.wait_for_call("POST", THREADS)
    thread_id = card["id"]

    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드 1/3")
    )
    # the pinned status carries the trend, one bar a judgement
    await status_edit(rig, status["id"], KO("convergence.meter", bars="▅▅▇▇", percent=90))
    pause = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == KO("convergence.title")
        )
    )
    assert as_embed(pause)["description"] == KO("convergence.body", bars="▅▅▇▇", percent=90)
    ids = custom_ids(pause)
    assert ids == [
        f"debate:{a}:{debate_id}:1" for a in ("consensus", "extend", "conclude")
    ]  # the first pause
    labels = [i["label"] for row in pause["components"] for i in row["components"]]
    assert labels == [KO(f"convergence.button_{a}") for a in ("consensus", "extend", "conclude")]
    paused = await rig.handler.get(debate_id)
    assert (
        paused.people.paused == "converging" and paused.floor.turns == 4
    )  # round 2 done; before round 3
    await assert_refused(rig, pause["id"], ids[0], people.bob)

    await rig.restart()
    kind, _ = await click(rig, pause["id"], ids[0], people.carol)
    assert kind == 6
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and visible_text(m) == KO("convergence.declared", user="carol")
        )
    )
    await rig.handler.wait_idle(debate_id)
    ended = await rig.handler.get(debate_id)
    assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.CONSENSUS
    assert not await posted_twice(rig, rig.services.db, debate_id, thread_id)
