"""A format for the engine's own tests: three participants answer at once, twice.

Round 1 (`isolated`): every participant answers the agenda, none sees another's answer.
Round 2 (`informed`): each sees the others' round-1 answers, except that AG is never shown
Gemini's (a visibility rule to check the engine keeps). Then the debate ends.
"""

from __future__ import annotations

import random
from dataclasses import replace

from handlers.core.formats.base import BriefInput, Format, Piece
from handlers.core.formats.plans import AskStep, EndStep, Plan
from handlers.core.model import AG, GEMINI, Debate, Decision, Outcome, Participant, Turn

HIDDEN = {AG: GEMINI}  # participant: whose answers it never sees


class PanelFormat(Format):
    """Two parallel steps, then the end."""

    name = "panel"
    contract = "json"

    def allows(self, roster: tuple[Participant, ...]) -> bool:
        return len(roster) >= 3

    def start(self, debate: Debate, rng: random.Random) -> Plan:
        return AskStep(
            replace(debate, floor=replace(debate.floor, round=1, order=debate.ids)),
            "isolated",
            debate.ids,
        )

    def noted(self, debate: Debate, turn: Turn) -> Debate:
        return debate

    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        if debate.floor.round == 1:
            nxt = replace(debate, floor=replace(debate.floor, round=2, spoken=()))
            return AskStep(nxt, "informed", debate.ids)
        return EndStep(debate, Outcome.CONSENSUS)

    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        return EndStep(debate, Outcome.CONSENSUS)

    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        return EndStep(debate, Outcome.CONSENSUS)

    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        if debate.floor.step == "isolated":
            return ()
        hidden = HIDDEN.get(participant)
        return tuple(n for n, who in debate.floor.log if who not in (participant, hidden))

    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        debate = given.debate
        proposal = debate.proposal
        agenda = (
            ("topic", proposal.topic),
            ("question", proposal.question),
            ("context", proposal.context),
            ("others", ", ".join(p for p in debate.ids if p != given.ask.seat)),
        )
        pieces = [Piece("debate_agenda", agenda)]
        for turn in given.shown:
            values = (("speaker", turn.seat), ("turn", str(turn.number)), ("reply", turn.text))
            pieces.append(Piece("debate_earlier", values))
        return tuple(pieces)

    def estimate(self, debate: Debate) -> tuple[int, int]:
        return 2 * len(debate.setup.roster), 2

    def pages(self, debate: Debate) -> tuple[str, ...]:
        return ("agenda", "round-log", "conclusion")


PANEL = PanelFormat()
