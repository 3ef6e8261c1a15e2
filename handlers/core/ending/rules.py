"""The end's rules: a person's Stop (an open poll's votes bind instead), and the Conclusion
written: the outcome told, and the page that records it linked. Pure."""

from __future__ import annotations

from dataclasses import replace

from handlers.core import effects as fx
from handlers.core.ending.events import ConclusionReady, StopRequested
from handlers.core.feature import Control, Moment, Rule, rules
from handlers.core.model import Debate, Outcome, Phase
from handlers.core.poll.rules import stop_poll
from handlers.core.turns.steps import Step, conclude, format_of


def _stop_fits(debate: Debate, event: StopRequested) -> bool:
    return debate.phase.hears_people


def _concluding(debate: Debate, event: ConclusionReady) -> bool:
    return debate.phase is Phase.CONCLUDING


def _stopped(debate: Debate, event: StopRequested, at: Moment) -> Step:
    """Stop; an open poll is ended instead and its votes bind."""
    actor = event.actor
    early = stop_poll(debate, actor)
    if early is not None:
        return early
    return conclude(
        debate, Outcome.STOPPED, fx.Notify("debate.stopped_by", (("user", actor.shown_name),))
    )


def _ended(debate: Debate, event: ConclusionReady, at: Moment) -> Step:
    """The end: the Conclusion written and posted, or the format's own closing block."""
    phase = _END_PHASE.get(debate.ending.outcome or Outcome.CONSENSUS, Phase.CONCLUDED)
    ended = replace(
        debate,
        phase=phase,
        ending=replace(debate.ending, ended_at=at.now, conclusion=event.conclusion),
        floor=replace(debate.floor, speaker=None, late=()),
    )
    told = _outcome_told(ended)
    if format_of(debate).closes_itself(debate):  # its own closing block and pages
        return Step(ended, (fx.CancelTimer(), fx.PostSummary(), told, fx.UpdateStatus()))
    done = event.conclusion
    closing = (fx.WriteConclusion(done), fx.PostConclusion(done), told, fx.UpdateStatus())
    return Step(ended, (fx.CancelTimer(), *closing))


def _outcome_told(debate: Debate) -> fx.Notify:
    """The thread's last word: the outcome, and the page that records it (the format's to say)."""
    page = format_of(debate).record_page(debate)
    outcome = f"⟦front.outcome_{(debate.ending.outcome or Outcome.CONSENSUS).value}⟧"
    return fx.Notify("debate.outcome_recorded", (("outcome", outcome), ("page", page)))


_END_PHASE = {Outcome.STOPPED: Phase.STOPPED, Outcome.FAILED: Phase.FAILED}  # else CONCLUDED


RULES = rules(Rule(StopRequested, _stopped, _stop_fits), Rule(ConclusionReady, _ended, _concluding))


STOP = Control("stop", 4, StopRequested, lambda debate: ((),))
