"""Stalemate ends in the people's decision: the poll's transitions.

A stuck debate pauses (handlers/core/poll/stalemate.py); the minority report comes back checked
(`MinorityReported`) and the poll opens; at its stored end time (`TimerDue`, from the DB-backed
timer) or when an authorized person presses Stop, the bot ends and reads it (`ClosePoll`);
its votes (`PollClosed`) bind: the debate concludes with the people's decision. Pure.
"""

from __future__ import annotations

from dataclasses import replace

from handlers.core.effects import ClosePoll, Notify, OpenPoll, PostMinorityReport, UpdateStatus
from handlers.core.feature import Moment, Rule, rules
from handlers.core.model import Actor, Debate, Outcome, Phase
from handlers.core.poll.events import MinorityReported, PollClosed
from handlers.core.poll.minority import answers
from handlers.core.poll.stalemate import reporting, stuck_for_two_rounds
from handlers.core.poll.state import PeoplePoll, PollStage
from handlers.core.spending.events import TimerDue
from handlers.core.turns.steps import Step, conclude

MIN_ANSWERS = 2  # a poll needs two positions to choose between


def stalemate_pause(judged: Debate, step: Step) -> Step:
    """After two rounds of a low meter with the sides still apart, the people decide by poll."""
    if step.debate.floor.round > judged.floor.round and stuck_for_two_rounds(judged):
        return Step(*reporting(judged))
    return step


def _at(debate: Debate, stage: PollStage) -> PeoplePoll | None:
    """The debate's poll, if the debate waits on it at `stage`."""
    poll = debate.poll
    waiting = debate.phase is Phase.AWAITING_USER and debate.people.paused == "poll"
    return poll if waiting and poll is not None and poll.stage is stage else None


def on_poll(debate: Debate, event: MinorityReported | TimerDue | PollClosed) -> Step:
    """The report written, the end time reached, or the votes read."""
    match event:
        case MinorityReported(report=report) if poll := _at(debate, PollStage.REPORT):
            opened = replace(poll, stage=PollStage.OPEN, report=report)
            opened = replace(opened, answers=answers(debate, report))
            if len(opened.answers) < MIN_ANSWERS:  # one side spoke: nothing to vote between
                alone = replace(
                    debate,
                    poll=opened,
                    people=replace(debate.people, paused=""),
                    moderation=replace(debate.moderation, tasks=()),
                )
                return conclude(alone, Outcome.MAX_ROUNDS, Notify("poll.no_sides"))
            waiting = replace(debate, poll=opened, moderation=replace(debate.moderation, tasks=()))
            return Step(waiting, (PostMinorityReport(), OpenPoll(), UpdateStatus()))
        case TimerDue() if poll := _at(debate, PollStage.OPEN):
            return Step(
                replace(debate, poll=replace(poll, stage=PollStage.CLOSING)), (ClosePoll(),)
            )
        case PollClosed(counts=counts, lost=lost) if poll := _at(debate, PollStage.CLOSING):
            size = len(poll.answers)
            votes = (tuple(counts) + (0,) * size)[:size]
            done = replace(poll, stage=PollStage.CLOSED, counts=votes, lost=lost)
            ended = replace(debate, poll=done, people=replace(debate.people, paused=""))
            return conclude(ended, Outcome.PEOPLE, result_notice(done))
    return Step(debate)


def stop_poll(debate: Debate, actor: Actor) -> Step | None:
    """Stop while the poll is open ends it now, and the votes cast so far bind; while it is
    being read, Stop changes nothing; before it opened, Stop stops the debate (None)."""
    if debate.people.paused != "poll" or debate.poll is None:
        return None
    poll = debate.poll
    if poll.stage is PollStage.OPEN:
        who = actor.shown_name
        closing = replace(poll, stage=PollStage.CLOSING, closed_by=who)
        notice = Notify("poll.stopped", (("user", who),))
        return Step(replace(debate, poll=closing), (notice, ClosePoll()))
    return Step(debate) if poll.stage is PollStage.CLOSING else None


def result_notice(poll: PeoplePoll) -> Notify:
    """The result in one line: the chosen answer with its votes, a tie, or no votes."""
    total = ("total", str(poll.total))
    if poll.lost:
        return Notify("poll.lost")
    if poll.winner is not None:
        chosen = (("answer", poll.answers[poll.winner]), ("votes", str(poll.counts[poll.winner])))
        return Notify("poll.decided", (*chosen, total))
    if poll.leaders:
        tied = " / ".join(poll.answers[i] for i in poll.leaders)
        return Notify(
            "poll.tied", (("answers", tied), ("votes", str(poll.counts[poll.leaders[0]])), total)
        )
    return Notify("poll.no_votes")


def _on_poll(debate: Debate, event: MinorityReported | PollClosed, at: Moment) -> Step:
    return on_poll(debate, event)


RULES = rules(Rule(MinorityReported, _on_poll), Rule(PollClosed, _on_poll))
