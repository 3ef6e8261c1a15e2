"""The `free` format (the user's design v3): one participant at a time in a drawn order, the
moderator judging after every reply, until consensus, the round limit or Stop."""

from __future__ import annotations

import random
from dataclasses import replace

from handlers.core.effects import Notify
from handlers.core.formats.base import BriefInput, Format, Piece, agenda, relayed, since_own
from handlers.core.formats.decision import DecisionRecord, concluded
from handlers.core.formats.plans import AskStep, EndStep, JudgeStep, Plan
from handlers.core.model import Action, Debate, Decision, Outcome, Turn, WikiPage


class FreeFormat(Format):
    """Today's debate: each round every participant speaks once; the moderator judges each reply."""

    name = "free"
    stalemate_poll = True  # no ending of its own: a stuck debate is the people's to decide

    def start(self, debate: Debate, rng: random.Random) -> Plan:
        """Round 1 in a drawn order."""
        order = draw_order(debate.ids, rng)
        opened = replace(debate, floor=replace(debate.floor, round=1, order=order, spoken=()))
        opening = Notify("debate.opening", (("seat", order[0]),))
        return AskStep(opened, "turn", (order[0],), (opening,))

    def noted(self, debate: Debate, turn: Turn) -> Debate:
        """A question to the others that ends a round: the one it goes to speaks first next."""
        question = turn.parsed.question
        if question is None or question.to != "opponent" or not _round_done(debate):
            return debate
        return replace(
            debate,
            people=replace(debate.people, first_next_round=_after(debate.floor.order, turn.seat)),
        )

    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        """A reply is judged, unless it closed the last round; a skipped turn moves on."""
        if not debate.floor.step_turns:
            return self._next(debate, rng)
        if _round_done(debate) and debate.floor.round >= debate.setup.max_rounds:
            return EndStep(debate, Outcome.MAX_ROUNDS)
        return JudgeStep(debate)

    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        """Continue in order; a redirect's next speaker speaks at once, even mid-round."""
        lead = decision.next_seat if decision.action is Action.REDIRECT else None
        if lead is not None and lead in debate.ids and not _round_done(debate):
            return AskStep(debate, "turn", (lead,))
        return self._next(debate, rng, lead)

    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        """After the people's answer the round goes on."""
        return self._next(debate, rng)

    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        """Every other participant's turn since this one last spoke, verbatim."""
        return since_own(debate, participant)

    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        """Agenda first where the participant has not had it, then what it may see, then ask."""
        debate, ask = given.debate, given.ask
        me = debate.member(ask.seat)
        others = ", ".join(debate.name_of(p) for p in debate.ids if p != ask.seat) or "-"
        spoke = any(who == ask.seat for _, who in debate.floor.log)
        shown = tuple(turn for turn in given.shown if turn.seat != ask.seat)
        common = (("round", str(ask.round)), ("max_rounds", str(debate.setup.max_rounds)))
        pieces: list[Piece] = []
        if me.persona:
            pieces.append(Piece("debate_persona", (("name", me.name), ("persona", me.persona))))
        if ask.fresh_session:
            pieces.append(_seed(debate))
        if not shown:
            if spoke:
                return (*pieces, Piece("debate_continue", (("opponent", others), *common), True))
            return (
                *pieces,
                Piece("debate_opening", (*agenda(debate), ("opponent", others), *common), True),
            )
        if not spoke and not ask.fresh_session:
            pieces.append(Piece("debate_agenda", (*agenda(debate), ("others", others))))
        pieces += relayed(debate, "debate_earlier", shown[:-1])
        last = shown[-1]
        relay = (("opponent", debate.name_of(last.seat)), ("reply", last.text), *common)
        return (*pieces, Piece("debate_relay", relay, True))

    def estimate(self, debate: Debate) -> tuple[int, int]:
        """Every participant once a round; a judgement a turn; detection and the Conclusion."""
        turns = debate.setup.max_rounds * len(debate.setup.roster)
        return turns, turns + 2

    def pages(self, debate: Debate) -> tuple[str, ...]:
        """Agenda and Conclusion always; the others once they have something in them."""
        pages = [WikiPage.AGENDA.value]
        if debate.moderation.working_document.strip():
            pages.append(WikiPage.WORKING_DOCUMENT.value)
        if debate.floor.log or debate.people.lines or debate.floor.turns:
            pages.append(WikiPage.ROUND_LOG.value)
        return (*pages, WikiPage.CONCLUSION.value)

    def decision(self, debate: Debate, turns: tuple[Turn, ...]) -> DecisionRecord:
        """The Conclusion is free's outcome: the moderator's decision, its agreed points and
        open issues, each participant's position with its claims on the board."""
        del turns
        return concluded(debate)

    def _next(self, debate: Debate, rng: random.Random, lead: str | None = None) -> Plan:
        """The rest of this round, or a new round, or the end."""
        remaining = [p for p in debate.floor.order if p not in debate.floor.spoken]
        if remaining:
            return AskStep(debate, "turn", (remaining[0],))
        if debate.floor.round >= debate.setup.max_rounds:
            return EndStep(debate, Outcome.MAX_ROUNDS)
        order = draw_order(debate.ids, rng, debate.people.first_next_round or lead)
        nxt = replace(
            debate,
            floor=replace(debate.floor, round=debate.floor.round + 1, order=order, spoken=()),
            people=replace(debate.people, first_next_round=None),
        )
        return AskStep(nxt, "turn", (order[0],))


def draw_order(
    ids: tuple[str, ...], rng: random.Random, first: str | None = None
) -> tuple[str, ...]:
    """A round's order: `first` (if given) leads, the rest drawn at random."""
    lead = first if first in ids else rng.choice(ids)
    rest = [p for p in ids if p != lead]
    if len(rest) > 1:
        rng.shuffle(rest)
    return (lead, *rest)


def _round_done(debate: Debate) -> bool:
    return bool(debate.floor.order) and set(debate.floor.order) <= set(debate.floor.spoken)


def _after(order: tuple[str, ...], participant: str) -> str | None:
    """The participant after `participant` in the order, round the table."""
    if participant not in order or len(order) < 2:
        return None
    return order[(order.index(participant) + 1) % len(order)]


def _seed(debate: Debate) -> Piece:
    """Topic, question and the state so far, for a session that starts afresh."""
    state = (
        ("summary", debate.moderation.summary or "-"),
        ("working_document", debate.moderation.working_document or "-"),
    )
    return Piece("debate_resume_seed", (*agenda(debate)[:2], *state))


FREE = FreeFormat()
