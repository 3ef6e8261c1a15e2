"""Honest degradation: which seats failed or were skipped and whether the moderator
fell back to its rules, kept on the debate and named above every closing page and post; a
debate reads as a consensus only when every seat that spoke agreed and none faltered. Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from handlers.core.model import Debate, ModeratorSource, Outcome, Stance

Translate = Callable[..., str]


def keyed(key: str) -> str:
    """A locale key as a format writes it (handlers/core/formats/keys.py)."""
    return f"⟦{key}⟧"


def faltered(debate: Debate, *seats: str) -> Debate:
    """The debate with `seats` recorded as failed or skipped (each once)."""
    return replace(
        debate,
        floor=replace(
            debate.floor, faltered=tuple(dict.fromkeys((*debate.floor.faltered, *seats)))
        ),
    )


def fell_back(debate: Debate, source: ModeratorSource) -> Debate:
    """The debate with a rules fallback recorded, when `source` says the rules decided."""
    return (
        replace(debate, moderation=replace(debate.moderation, fell_back=True))
        if source is ModeratorSource.RULES
        else debate
    )


def honest(debate: Debate, outcome: Outcome) -> Outcome:
    """A consensus stands only if no seat faltered and each seat that spoke last agreed (a
    seat whose format asks no stance is taken at the format's word); else it is a verdict."""
    if outcome is not Outcome.CONSENSUS:
        return outcome
    spoke = dict.fromkeys(seat for _, seat in debate.floor.log)
    stances = {debate.stance_of(seat) for seat in spoke} - {None, Stance.AGREE}
    return Outcome.VERDICT if debate.floor.faltered or stances else outcome


def chose_rules(debate: Debate) -> bool:
    """True when the people run the rule-based moderator: its rules are no fallback."""
    return debate.setup.moderator is ModeratorSource.RULES


def degraded_line(debate: Debate, t: Translate = keyed, *, by_rules: bool = False) -> str:
    """`⚠️ Not a full result: failed or skipped: AG · the moderator fell back to its rules`,
    or "" when nothing failed; by default keyed (`⟦degraded.line⟧`, filled where it is shown).
    `by_rules`: the closing itself was drawn up by the rules (a fallback only when the people
    did not choose the rules: see `rules_line`)."""
    parts = []
    if debate.floor.faltered:
        names = ", ".join(debate.name_of(seat) for seat in debate.floor.faltered)
        parts.append(f"{t('degraded.seats')} {names}")
    fell = debate.moderation.fell_back or debate.moderation.source is ModeratorSource.RULES
    if (fell or by_rules) and not chose_rules(debate):
        parts.append(t("degraded.rules"))
    return f"{t('degraded.line')} {' · '.join(parts)}" if parts else ""


def rules_line(debate: Debate, t: Translate = keyed) -> str:
    """`ℹ️ The rules moderated this debate, as chosen (no model)`: a plain statement when the
    people chose the rule-based moderator, else ""."""
    return t("degraded.chosen_rules") if chose_rules(debate) else ""


def warned(debate: Debate, body: str, t: Translate = keyed, *, by_rules: bool = False) -> str:
    """`body` under the degradation line in bold and the chosen rules' plain statement (below
    its `# ` title), when there is one."""
    line = degraded_line(debate, t, by_rules=by_rules)
    said = [f"**{line}**"] if line else []
    if plain := rules_line(debate, t):
        said.append(plain)
    if not said:
        return body
    head = "\n\n".join(said)
    title, rest = body.split("\n", 1) if body.startswith("# ") and "\n" in body else ("", body)
    return f"{title}\n\n{head}\n\n{rest.lstrip()}" if title else f"{head}\n\n{body}"
