"""The `boardroom` format (seed 000_383279b99be03db2, in Portuguese): a panel of two to five
personas votes on a concrete decision. Round 1 isolated and parallel, round 2 cross-pollinated,
then a synthesis whose result the code computes and whose prose the moderator writes."""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType

import handlers.core.formats.boardroom.advisor as adviser
import handlers.core.formats.boardroom.pages as board
import handlers.core.formats.boardroom.report as board_report
from handlers.core.effects import AskDebater, Notify, WritePage
from handlers.core.formats.base import (
    REPAIR_SUFFIX,
    BriefInput,
    CardOption,
    Format,
    Piece,
    agenda,
    by_rules,
    every_turn,
    is_repair,
    lacks,
    latest_of,
    repair_ask,
)
from handlers.core.formats.boardroom.decision import boardroom_decision
from handlers.core.formats.boardroom.reply import (
    missing_parts,
    parse_contract,
    parse_position,
    vote_of,
    words_of,
)
from handlers.core.formats.boardroom.reply_schema import (
    advisor_schema,
    position_schema,
    rebuttal_schema,
)
from handlers.core.formats.boardroom.schemas import (
    AdvisorTaskReply,
    DecisionTaskReply,
    SynthesisTaskReply,
)
from handlers.core.formats.boardroom.squad import (
    GROUNDING,
    MAX_PANEL,
    SQUAD_OPTION,
    card_line,
    grounding,
    seat,
    seated_notice,
    squad_value,
)
from handlers.core.formats.decision import DecisionRecord
from handlers.core.formats.plans import AskStep, EndStep, PeopleStep, Plan, TaskStep
from handlers.core.model import Debate, Decision, Outcome, Participant, Turn, WikiPage

ROUNDS = 2  # the seed's: positions, then rebuttals
POSITION, REBUTTAL = "position", "rebuttal"
DECISION, SYNTHESIS, ADVISOR = board.DECISION, adviser.SYNTHESIS, adviser.ADVISOR  # its tasks


class BoardroomFormat(Format):
    """Two rounds of votes and a synthesis with a vote tracker."""

    name = "boardroom"
    parse = staticmethod(parse_contract)  # JSON, or the seed's numbered sections
    task_schemas = MappingProxyType(
        {DECISION: DecisionTaskReply, SYNTHESIS: SynthesisTaskReply, ADVISOR: AdvisorTaskReply}
    )
    card_options = (  # the squad (a menu of members), then the grounding's forms
        CardOption(SQUAD_OPTION, members=MAX_PANEL, read=squad_value),
        *(CardOption(key) for key in GROUNDING),
    )

    def seats_added(
        self, options: tuple[tuple[str, str], ...], language: str = ""
    ) -> tuple[Participant, ...]:
        """The advisor, when the settings seat it on a backend of its own."""
        advisor = adviser.seat_of_spec(options)
        return () if advisor is None else (advisor,)

    def start(self, debate: Debate, rng: random.Random) -> Plan:
        """The card's squad sits; the moderator first states the question as a concrete
        decision; the debate has the seed's two rounds, whatever the card's budget said."""
        debate = seat(debate)
        started = replace(
            debate,
            floor=replace(debate.floor, round=1, order=debate.ids, spoken=()),
            setup=replace(debate.setup, max_rounds=ROUNDS),
        )
        return TaskStep(started, DECISION)

    def _round_one(self, debate: Debate) -> Plan:
        """Round 1: everyone at once, none seeing another (the thread told who sits)."""
        notices = (
            *seated_notice(debate),
            Notify(
                "boardroom.decision_detected"
                if by_rules(debate, DECISION)
                else "boardroom.decision",
                (("decision", board.decision_of(debate)),),
            ),
            Notify("boardroom.round1", (("count", str(len(debate.ids))),)),
        )
        return AskStep(debate, POSITION, debate.ids, notices)

    def reply_schema(self, debate: Debate, ask: AskDebater) -> str:
        """The round's answer as its prompt accepts it in JSON, or the advisor's review."""
        step = ask.step.removesuffix(REPAIR_SUFFIX)
        if step == ADVISOR:
            return advisor_schema()
        language = debate.setup.language
        return position_schema(language) if ask.round <= 1 else rebuttal_schema(language)

    def noted(self, debate: Debate, turn: Turn) -> Debate:
        """Keep the vote, why it changed (round 2) and what the answer lacks (for one repair);
        the advisor's answer is the reviewed synthesis."""
        if debate.floor.step == ADVISOR:
            return adviser.reviewed_by_seat(debate, turn)
        found = parse_position(turn.text, debate.floor.round)
        vote = found.vote or (vote_of(turn.text) if turn.meta.person else None)  # its first word
        notes = {f"vote/{debate.floor.round}/{turn.seat}": vote or ""}
        if not is_repair(debate.floor.step):
            gaps = lacks(turn, missing_parts(found, debate.floor.round))
            notes[f"missing/{debate.floor.round}/{turn.seat}"] = ", ".join(gaps)
        if debate.floor.round == 2:
            notes[f"why/{turn.seat}"] = found.why_changed
        kept = dict(debate.moderation.outputs)
        for key, value in notes.items():
            if value or key not in kept:  # a repair without a vote keeps the first one's
                kept[key] = value
        return replace(debate, moderation=replace(debate.moderation, outputs=tuple(kept.items())))

    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        """Round 1 done: round 2 with every position; round 2 done: the synthesis; the
        advisor's review done (or its seat silent): the end."""
        if debate.floor.step == ADVISOR:
            return self._reviewed(adviser.unreviewed_if_silent(debate), (WritePage(SYNTHESIS),))
        repair = repair_ask(debate, board.gaps(debate), "boardroom.repair")
        if repair is not None:
            return repair
        if debate.floor.round == 1:
            boundary = (*debate.moderation.outputs, (board.ROUND1_LAST, str(debate.floor.turns)))
            informed = replace(
                debate,
                floor=replace(debate.floor, round=2, spoken=()),
                moderation=replace(debate.moderation, outputs=boundary),
            )
            written = tuple(WritePage(f"round-1/{seat}") for seat in board.seats_in(informed, 1))
            return AskStep(informed, REBUTTAL, debate.ids, (*written, Notify("boardroom.round2")))
        return TaskStep(debate, SYNTHESIS)

    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        """The boardroom has no judgements between answers."""
        return TaskStep(debate, SYNTHESIS)

    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        """The people decided: the end, their answer in the Round-Log and on the synthesis."""
        return EndStep(debate, Outcome.PEOPLE, (WritePage(SYNTHESIS),))

    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        """Round 1 sees nothing (isolation); round 2 every answer, its own too; a repair its own."""
        if is_repair(debate.floor.step):
            return latest_of(debate, participant)
        if debate.floor.step == POSITION or debate.floor.round <= 1:
            return ()
        return every_turn(debate)

    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        """The round's brief: the decision, the persona, and in round 2 all positions."""
        debate, seat = given.debate, given.ask.seat
        me = debate.member(seat)
        values = (
            *board.agenda_values(debate),
            ("name", me.name),
            ("persona", me.persona or "-"),
            ("panel", board.panel_line(debate)),
            *grounding(debate),
        )
        rnd = debate.floor.round
        kept = values if rnd == 1 else _without_context(values)  # round 1 had the grounding
        ask = Piece(f"boardroom/round{rnd}", kept, True, f"boardroom/reply{rnd}")
        if given.ask.step == ADVISOR:  # the positions in short, the constraints, the draft
            return (Piece("boardroom/advisor", board.advisor_values(debate, given.shown)),)
        if is_repair(given.ask.step):
            own = given.shown[-1].text if given.shown else ""
            missing = debate.output_of(f"missing/{rnd}/{seat}") or ""
            return (ask, Piece("format_repair", (("missing", missing), ("answer", own))))
        shown = tuple(  # round 2: every position (round 1 is shown none)
            Piece(
                "boardroom/position_own" if turn.seat == seat else "boardroom/position",
                (("speaker", debate.name_of(turn.seat)), ("reply", turn.text)),
            )
            for turn in given.shown
        )
        return (*shown, ask)

    def words(self, debate: Debate, turn: Turn) -> str:
        """An answer in words: a JSON object as the numbered layout of its parts."""
        return words_of(turn.text, turn.round)

    def holds(self, debate: Debate) -> bool:
        """Round-1 answers are posted only once all are in (isolation)."""
        return debate.floor.step == POSITION

    def task_brief(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> tuple[Piece, ...]:
        """The decision, the advisor's review, or the synthesis over every answer verbatim."""
        if task == DECISION:
            return (Piece("boardroom/decision", agenda(debate)),)
        if task == ADVISOR:
            return (Piece("boardroom/advisor", board.advisor_values(debate, shown)),)
        answers = tuple(
            Piece(
                "boardroom/answer",
                (("speaker", debate.name_of(t.seat)), ("round", str(t.round)), ("reply", t.text)),
            )
            for t in shown
        )
        values = (
            *board.agenda_values(debate)[:2],  # topic and question
            ("result", board.result_of(debate)),
            ("votes", board.vote_lines(debate)),
            ("ids", ", ".join(adviser.panel_ids(debate))),
        )
        return (*answers, Piece("boardroom/synthesis", values))

    def task_fallback(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> str:
        """Without a model: the question as detected, and a synthesis from the answers."""
        if task == DECISION:
            return board.fallback_decision(debate)
        if task == ADVISOR:  # the draft stands, marked as not reviewed (by_rules)
            return debate.output_of(SYNTHESIS) or "{}"
        return board.fallback_synthesis(debate, shown)

    def tasked(self, debate: Debate, task: str, output: str, rng: random.Random) -> Plan:
        """The draft goes to the advisor; the reviewed synthesis ends the debate, unless a
        divided panel cannot be reconciled: then the people decide."""
        if task == DECISION:
            return self._round_one(debate)
        if task == SYNTHESIS:
            return self._review(debate)
        return self._reviewed(debate)

    def _review(self, debate: Debate) -> Plan:
        """The draft to the advisor: its own seat (a fresh session), else the moderator."""
        advisor = adviser.advisor_of(debate)
        if advisor is None:
            return TaskStep(debate, ADVISOR)
        said = Notify("boardroom.advisor_asked", (("who", adviser.configured(advisor)),))
        return AskStep(adviser.seated(debate, advisor), ADVISOR, (advisor.id,), (said,))

    def _reviewed(self, debate: Debate, effects: tuple[WritePage | Notify, ...] = ()) -> Plan:
        """The end, unless a divided panel cannot be reconciled: then the people decide,
        told who found it so; a draft no review came for is said to stand unreviewed."""
        if not board.reviewed(debate):
            effects = (*effects, Notify("boardroom.unreviewed"))
        question = board.question_for_people(debate)
        if question is not None:
            how = "boardroom.escalate_buttons" if question.options else "boardroom.escalate_typed"
            said = Notify(how, (("why", board.escalation_reason(debate)),))
            return PeopleStep(debate, question, (*effects, said))
        consensus = board.result_of(debate) == board.CONSENSUS
        return EndStep(debate, Outcome.CONSENSUS if consensus else Outcome.VERDICT, effects)

    def task_pages(self, debate: Debate, task: str) -> tuple[str, ...]:
        """Once the draft is in: each member's round-2 page; once reviewed: the synthesis."""
        if task == SYNTHESIS:
            return tuple(f"round-2/{seat}" for seat in board.seats_in(debate, 2))
        return (SYNTHESIS,) if task == ADVISOR else ()

    def page_shows(self, debate: Debate, page: str) -> tuple[int, ...]:
        """A participant's round page reads its own answers; the synthesis none."""
        round_page = board.round_page(page)
        if round_page is None:
            return ()
        return tuple(number for number, who in debate.floor.log if who == round_page[1])

    def render_page(self, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
        """A round page or the synthesis."""
        return board_report.render(debate, page, turns)

    def record_page(self, debate: Debate) -> str:
        """The synthesis records the outcome (vote tracker, result, recommendation); before
        it is written, the Round-Log (a member's round page records one answer only)."""
        if SYNTHESIS in (written := self.pages(debate)):
            return SYNTHESIS
        return WikiPage.ROUND_LOG.value if WikiPage.ROUND_LOG.value in written else written[0]

    def summary(self, debate: Debate) -> str:
        """The seed's compact closing block."""
        return board_report.compact_block(debate)

    def decision(self, debate: Debate, turns: tuple[Turn, ...]) -> DecisionRecord:
        """The vote as the record: the chosen answer, the synthesis's reasons (decision.py)."""
        return boardroom_decision(debate, turns)

    def card_roster(self, debate: Debate, names: dict[str, str]) -> str:
        """The squad that will sit, who is left out, and the suggestion with its reason."""
        return card_line(debate, names)

    def estimate(self, debate: Debate) -> tuple[int, int]:
        """Two answers and one repair each, of at most five; decision, draft and review."""
        return 4 * min(len(debate.setup.roster), MAX_PANEL), 3

    def pages(self, debate: Debate) -> tuple[str, ...]:
        """The synthesis first (it records the outcome, so it is linked first), then the rest."""
        written = [SYNTHESIS] if debate.output_of(ADVISOR) is not None else []
        written.append(WikiPage.AGENDA.value)
        if debate.floor.log:
            written.append(WikiPage.ROUND_LOG.value)
        if debate.output_of(board.ROUND1_LAST) is not None:
            written += [f"round-1/{seat}" for seat in board.seats_in(debate, 1)]
        if debate.output_of(SYNTHESIS) is not None:
            written += [*self.task_pages(debate, SYNTHESIS)]
        return tuple(written)


def _without_context(values: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    kept_out = {"context", *(key.split(".")[1] for key in GROUNDING)}
    return tuple(pair for pair in values if pair[0] not in kept_out)


BOARDROOM = BoardroomFormat()
