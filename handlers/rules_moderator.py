"""The deterministic moderator: what decides when Gemini cannot (quota spent, errors, bad output).

Pure: no I/O, no clock. Its few words come from the locale strings (`moderator.*`), in each
debate's own language.
"""

from __future__ import annotations

from handlers.core.i18n import Strings
from handlers.core.model import (
    Action,
    ChatLine,
    Conclusion,
    Debate,
    Decision,
    Detection,
    ModeratorSource,
    ModeratorView,
    Outcome,
    Stance,
    Turn,
    UserQuestion,
)
from handlers.core.moderation.bounds import bound_summary
from handlers.core.moderation.rules import both_agree
from handlers.core.shorten import gist
from handlers.ports import ModeratorUnavailable, TaskRequest

SUMMARY_LINE_CHARS = 220  # one mechanical line per turn
POSITION_CHARS = 700  # each side's last position on the Conclusion page
_STANCE_WEIGHT = {Stance.AGREE: 1.0, Stance.PARTIAL: 0.5, Stance.DISAGREE: 0.0}


class RulesModerator:
    """Judges by fixed rules: both agree → conclude, a question for the people → ask, else go on."""

    def __init__(self, strings: Strings) -> None:
        self._strings = strings

    async def judge(self, view: ModeratorView) -> Decision:
        """The rule-based judgement of the latest turn, with the summary extended by one line."""
        debate = view.debate
        latest = _latest(view)
        summary = self.extend_summary(debate, latest)
        consensus = consensus_estimate(view)
        if both_agree(debate):
            return _decision(Action.CONCLUDE, summary, consensus)
        question = latest.parsed.question if latest is not None else None
        if question is not None and question.to == "user" and question.text.strip():
            asked = UserQuestion(text=question.text.strip())
            return _decision(Action.ASK_USER, summary, consensus, asked)
        return _decision(Action.CONTINUE, summary, consensus)

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """A mechanical Conclusion: how it ended and each side's last position."""
        debate, phrase = view.debate, self._strings.of(view.debate)
        outcome = debate.ending.outcome or Outcome.MAX_ROUNDS
        if both_agree(debate):
            decision = phrase("moderator.rules_decision_agreed")
        elif outcome is Outcome.CONSENSUS:  # the people declared it at a pause
            decision = phrase("moderator.rules_decision_declared")
        else:
            reason = phrase(f"moderator.rules_outcome_{outcome.value}")
            decision = phrase("moderator.rules_decision_open", reason=reason)
        positions = tuple((seat, self._position(view, seat)) for seat in debate.ids)
        latest = _latest(view)
        open_issues: tuple[str, ...] = ()
        if latest is not None and latest.parsed.question is not None:
            open_issues = (latest.parsed.question.text.strip(),)
        return Conclusion(
            decision=decision,
            open_issues=open_issues,
            positions=positions,
            next_steps=(phrase("moderator.rules_next_step"),),
            source=ModeratorSource.RULES,
        )

    async def detect(self, window: tuple[ChatLine, ...], language: str = "") -> Detection:
        """Rules never start a debate: without the model, detection pauses."""
        del window, language
        return Detection(debate_worthy=False, source=ModeratorSource.RULES)

    def extend_summary(self, debate: Debate, turn: Turn | None) -> str:
        """The debate's summary plus one line for `turn` (once, in the debate's language),
        trimmed to SUMMARY_MAX_CHARS."""
        summary, phrase = debate.moderation.summary, self._strings.of(debate)
        if turn is None or any(old.startswith(f"T{turn.number} ") for old in summary.splitlines()):
            return bound_summary(summary)  # none, or judged again after a restart: no second line
        stance = phrase(f"moderator.stance_{turn.parsed.stance or 'none'}")
        line = phrase(
            "moderator.rules_summary_line",
            turn=str(turn.number),
            seat=debate.name_of(turn.seat),
            stance=stance,
            gist=gist(turn.parsed.opinion, SUMMARY_LINE_CHARS),
        )
        return bound_summary("\n".join(part for part in (summary.rstrip(), line) if part))

    def _position(self, view: ModeratorView, seat: str) -> str:
        phrase = self._strings.of(view.debate)
        turns = [turn for turn in view.last_turns if turn.seat == seat]
        if not turns:
            return phrase("moderator.rules_no_position")
        last = max(turns, key=lambda turn: turn.number)
        stance = phrase(f"moderator.stance_{last.parsed.stance or 'none'}")
        return f"({stance}) {gist(last.parsed.opinion, POSITION_CHARS)}"

    async def perform(self, request: TaskRequest) -> str:
        """No model here, so the format's deterministic fallback stands in."""
        raise ModeratorUnavailable(f"task {request.task}: rule-based moderator")


def _decision(
    action: Action, summary: str, consensus: float, question: UserQuestion | None = None
) -> Decision:
    return Decision(
        action=action,
        user_question=question,
        consensus=consensus,
        summary=summary,
        source=ModeratorSource.RULES,
    )


def _latest(view: ModeratorView) -> Turn | None:
    return max(view.last_turns, key=lambda turn: turn.number, default=None)


def consensus_estimate(view: ModeratorView) -> float:
    """The mean of the stated stances (agree 1, partial 0.5, disagree 0); 0 when none."""
    weights = [_STANCE_WEIGHT[stance] for _, stance in view.debate.floor.stances]
    return round(sum(weights) / len(weights), 2) if weights else 0.0
