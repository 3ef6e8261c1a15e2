"""The `ledger` format (seed 004): numbered turns, each its own page, ending in a ratified
ledger of agreed facts and a plain-language front page, or in open exploration. Two-party
turns, or orchestrated rounds (everyone at once: the engine's parallel step is the barrier;
what each sees: `shows`). The moderator never argues: its asks pass the turns verbatim."""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType

import handlers.core.formats.ledger.confirm as ledger_confirm
import handlers.core.formats.ledger.record as ledger_record
import handlers.core.formats.ledger.text as ledger_text
from handlers.core.effects import AskDebater, Effect, Notify, WritePage
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
    output_of,
    relayed,
    since_own,
    with_output,
)
from handlers.core.formats.decision import DecisionRecord, concluded
from handlers.core.formats.keys import verbatim
from handlers.core.formats.ledger.decision import ledger_decision
from handlers.core.formats.ledger.reply_schema import confirm_schema, turn_schema
from handlers.core.formats.ledger.schemas import FrontTaskReply, LedgerTaskReply
from handlers.core.formats.plans import AskStep, EndStep, Plan, TaskStep
from handlers.core.model import Debate, Decision, Outcome, Stance, Turn, WikiPage

END, STANCE, MODE = "ledger.end", "ledger.stance", "ledger.mode"
LEDGER, FRONT, REPAIR = ledger_text.LEDGER, ledger_text.FRONT, "front-page-repair"
CONFIRM, UNCONFIRMED = ledger_confirm.CONFIRM, ledger_confirm.UNCONFIRMED
DIAGRAM = "concepts.svg"
PARTICIPANTS = "participants"  # seed 004's participants.json: who each seat is, what runs it


def orchestrated(debate: Debate) -> bool:
    """Orchestrate mode: chosen, or more than two participants."""
    return debate.option(MODE) == "orchestrate" or len(debate.setup.roster) > 2


def converging(debate: Debate) -> bool:
    """End-state: a ratified ledger (default) or open exploration."""
    return debate.option(END, "converge") != "open"


def confirms(debate: Debate) -> bool:
    """Two-party and converging: both debaters see the written ledger and confirm or amend it
    (one round) before the Conclusion calls anything agreed."""
    return converging(debate) and not orchestrated(debate)


def standpoints(debate: Debate) -> tuple[tuple[str, str], ...]:
    """Each participant's standpoint: for / against in turn when assigned, else inquiry."""
    if debate.option(STANCE, "assigned") == "neutral":
        return tuple((p, "inquiry") for p in debate.ids)
    return tuple((p, "for" if n % 2 == 0 else "against") for n, p in enumerate(debate.ids))


class LedgerFormat(Format):
    """Numbered turns (or fanned-out rounds), then the ledger and the front page."""

    name = "ledger"
    task_schemas = MappingProxyType(
        {LEDGER: LedgerTaskReply, FRONT: FrontTaskReply, REPAIR: FrontTaskReply}
    )
    card_options: tuple[CardOption, ...] = (
        CardOption(END, ("converge", "open")),
        CardOption(STANCE, ("assigned", "neutral")),
    )

    def card_roster(self, debate: Debate, names: dict[str, str]) -> str:
        """`AG (for) · Claude (against) — ledger of agreed facts`: what each will argue."""
        stands = dict(standpoints(debate))
        line = " · ".join(
            f"{verbatim(names[m.id])} (⟦ledger.standpoint_{stands[m.id]}⟧)"
            for m in debate.setup.roster
        )
        return f"{line} — ⟦ledger.end_{'converge' if converging(debate) else 'open'}⟧"

    def start(self, debate: Debate, rng: random.Random) -> Plan:
        """Round 1: everyone at once (orchestrate) or the first participant."""
        opened = replace(debate, floor=replace(debate.floor, round=1, order=debate.ids, spoken=()))
        mode = "orchestrate" if orchestrated(debate) else "turns"
        return _round(opened, (WritePage("topic"), Notify(f"ledger.opening_{mode}")))

    def reply_schema(self, debate: Debate, ask: AskDebater) -> str:
        """A turn's contract with its claim lists, or the confirmation round's answer."""
        confirms = ask.step.removesuffix(REPAIR_SUFFIX) == CONFIRM
        return confirm_schema() if confirms else turn_schema()

    def noted(self, debate: Debate, turn: Turn) -> Debate:
        """Keep what the reply's contract lacks (for one repair request); a confirming reply's
        confirmation too (its latest answer stands)."""
        if ledger_confirm.confirming(debate):
            gaps = lacks(turn, ledger_confirm.confirm_missing(turn))
            said = ledger_confirm.stored(ledger_confirm.confirmation(turn))
            kept = with_output(debate, f"confirm:{turn.seat}", said)
            return with_output(kept, f"missing:{turn.seat}", ", ".join(gaps))
        return with_output(
            debate, f"missing:{turn.seat}", ", ".join(lacks(turn, ledger_text.missing_fields(turn)))
        )

    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        """Once the round (or a turn) is in: one repair request for lacking replies, or go on."""
        if ledger_confirm.confirming(debate):
            return ledger_confirm.answered(debate)
        numbers = (*_round_turns(debate, debate.floor.round), *debate.floor.step_turns)
        kept = with_output(debate, f"round:{debate.floor.round}", ",".join(map(str, numbers)))
        repair = ledger_confirm.repair_lacking(kept)
        if repair is not None:
            return repair
        remaining = [p for p in kept.floor.order if p not in kept.floor.spoken]
        if remaining and not orchestrated(kept):
            return AskStep(kept, "turn", (remaining[0],))
        if converging(kept) and _agreed(kept):
            return TaskStep(with_output(kept, "outcome", "consensus"), LEDGER)
        if kept.floor.round >= kept.setup.max_rounds:
            return TaskStep(kept, LEDGER if converging(kept) else FRONT)
        return _round(
            replace(kept, floor=replace(kept.floor, round=kept.floor.round + 1, spoken=()))
        )

    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        """Not judged turn by turn: a stray judgement goes on with the round."""
        return self.answered(replace(debate, floor=replace(debate.floor, step_turns=())), rng)

    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        """After the people's answer the round goes on."""
        return self.answered(replace(debate, floor=replace(debate.floor, step_turns=())), rng)

    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        """Orchestrate: exactly the others' previous-round turns; two-party: the others' since
        its own (verbatim either way)."""
        if is_repair(debate.floor.step):  # what the first ask showed, and its own reply
            own = max(n for n, who in debate.floor.log if who == participant)
            before = own  # confirming: nothing of the other side's answer, asked alongside
            if ledger_confirm.confirming(debate):
                before = ledger_confirm.first_turn(debate) or own
            earlier = tuple(e for e in debate.floor.log if e[0] < before)
            first = replace(
                debate,
                floor=replace(
                    debate.floor, log=earlier, step=debate.floor.step.removesuffix(REPAIR_SUFFIX)
                ),
            )
            return (*self.shows(first, participant), own)
        if orchestrated(debate):  # each one's last word of the round (a repair replaces)
            last = {
                who: n
                for n, who in debate.floor.log
                if n in _round_turns(debate, debate.floor.round - 1)
            }
            return tuple(
                n for n, who in debate.floor.log if last.get(who) == n and who != participant
            )
        return since_own(debate, participant)

    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        """Short and unbiased: the topic and standpoint, the conduct, the others verbatim; in
        the confirmation round, the written ledger to confirm or amend."""
        debate, ask = given.debate, given.ask
        repair = is_repair(ask.step) and bool(given.shown)
        shown = relayed(debate, "ledger/turn", given.shown[:-1] if repair else given.shown)
        if ask.step.removesuffix(REPAIR_SUFFIX) == CONFIRM:
            values = (*agenda(debate)[:2], ("name", debate.name_of(ask.seat)))
            items = ("ledger", ledger_confirm.item_lines(debate))
            ask_piece = Piece("ledger/confirm", (*values, items), True, "ledger/confirm_reply")
            pieces = [*shown, ask_piece]
        else:
            stance = dict(standpoints(debate))[ask.seat]
            rounds = (("round", str(ask.round)), ("max_rounds", str(debate.setup.max_rounds)))
            values = (*agenda(debate), ("name", debate.name_of(ask.seat)), *rounds)
            pieces = [Piece("ledger/brief", values), Piece(f"ledger/stance_{stance}"), *shown]
            pieces.append(Piece("ledger/ask", (), True, "ledger/reply"))
        if repair:
            missing = output_of(debate, f"missing:{ask.seat}")
            own = given.shown[-1].text
            pieces.append(Piece("ledger/repair", (("missing", missing), ("answer", own))))
        return tuple(pieces)

    def estimate(self, debate: Debate) -> tuple[int, int]:
        """Everyone once a round (and once more to confirm the ledger, two-party); the ledger,
        the front page and one repair."""
        confirming = len(debate.setup.roster) if confirms(debate) else 0
        return debate.setup.max_rounds * len(debate.setup.roster) + confirming, 3

    def pages(self, debate: Debate) -> tuple[str, ...]:
        """Agenda, Round-Log, topic, the turn pages, and the closing pages once written."""
        pages = [WikiPage.AGENDA.value, WikiPage.ROUND_LOG.value, "topic"]
        pages += [self._turn_page(debate, n, who) for n, who in debate.floor.log]
        if debate.output_of(LEDGER) is not None and (
            not confirms(debate) or debate.output_of(UNCONFIRMED) is not None
        ):  # two-party: written once both sides confirmed it
            pages.append("conclusion")
        if self.summary(debate):
            pages += [PARTICIPANTS, DIAGRAM, FRONT]  # the front page last: an open debate's record
        return tuple(pages)

    # ---- moderator tasks ---------------------------------------------------------------

    def task_brief(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> tuple[Piece, ...]:
        """The scribe's prompt: the turns verbatim, the ledger with ids for the front page."""
        pieces = [Piece("ledger/task_intro", agenda(debate)[:2])]
        pieces += relayed(debate, "ledger/turn", shown)
        if task == LEDGER:
            return (*pieces, Piece("ledger/task_ledger"))
        if not converging(debate):
            return (*pieces, Piece("ledger/task_explored"))
        items = ledger_confirm.item_lines(debate)
        pieces.append(Piece("ledger/task_front", (("ledger", items or "-"),)))
        if task == REPAIR:
            pieces.append(
                Piece("ledger/task_repair", (("missing", ", ".join(self._missing(debate))),))
            )
        return tuple(pieces)

    def task_fallback(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> str:
        """Rules mode: the ledger from the claims of every turn; a plain front page."""
        last = ledger_text.latest_each(shown)
        if task == LEDGER:
            return ledger_text.fallback_ledger(debate, shown)
        return ledger_text.fallback_front(debate, debate.output_of(LEDGER), last)

    def tasked(self, debate: Debate, task: str, output: str, rng: random.Random) -> Plan:
        """Ledger (two-party: then both sides confirm or amend it, one round), then front page;
        a front page missing a ledger id gets one repair."""
        if task == LEDGER and confirms(debate):
            return ledger_confirm.ask(debate, output)
        if task == LEDGER:
            return TaskStep(debate, FRONT)
        if task == FRONT and self._repairing(debate):  # output is stored
            return TaskStep(debate, REPAIR)
        consensus = debate.output_of("outcome") == "consensus"
        return EndStep(debate, Outcome.CONSENSUS if consensus else Outcome.MAX_ROUNDS)

    def task_pages(self, debate: Debate, task: str) -> tuple[str, ...]:
        """The pages a task's output is written to (two-party, the ledger once confirmed: with
        the front page)."""
        if task == LEDGER:
            return () if confirms(debate) else ("conclusion",)
        if task == FRONT and self._repairing(debate):
            return ()
        closing = (PARTICIPANTS, FRONT, DIAGRAM)
        return ("conclusion", *closing) if confirms(debate) else closing

    # ---- pages and the closing block -----------------------------------------------------

    def turn_pages(self, debate: Debate, turn: Turn) -> tuple[str, ...]:
        """Each turn its own page, written once."""
        return (self._turn_page(debate, turn.number, turn.seat),)

    def page_shows(self, debate: Debate, page: str) -> tuple[int, ...]:
        """A turn page shows its one turn; the participants record every turn (each seat's
        latest says what ran it); the others are rendered from the debate."""
        if page == PARTICIPANTS:
            return every_turn(debate)
        return tuple(n for n, who in debate.floor.log if self._turn_page(debate, n, who) == page)

    def render_page(self, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
        """(title, markdown) of a ledger page."""
        title = ledger_text.page_title(debate, page, orchestrated(debate))
        ledger, ratified = debate.output_of(LEDGER) or "", not by_rules(debate, LEDGER)
        if page == "topic":
            return title, ledger_record.render_topic(debate, standpoints(debate))
        if page == PARTICIPANTS:
            return title, ledger_record.render_participants(debate, ledger_text.latest_each(turns))
        if page == "conclusion":
            notes = debate.output_of(UNCONFIRMED)
            return title, ledger_text.render_conclusion(
                debate, ledger, ratified=ratified, notes=notes
            )
        if page in (FRONT, DIAGRAM):
            output, keyed = self._front(debate)
            line = ledger_text.orientation(debate, self.pages(debate), orchestrated(debate))
            markdown, svg = ledger_text.front_page(
                output, keyed=keyed, ratified=ratified, orientation=line
            )
            return title, svg if page == DIAGRAM else markdown
        return title, "\n".join(ledger_text.render_turn(debate, turn) for turn in turns)

    def decision(self, debate: Debate, turns: tuple[Turn, ...]) -> DecisionRecord:
        """The ratified ledger as the record once the front page is final (decision.py);
        before (a Stop), the moderator's Conclusion."""
        if not self.summary(debate):
            return concluded(debate)
        return ledger_decision(
            debate,
            turns,
            standpoints=standpoints(debate),
            converging=converging(debate),
            confirmed=confirms(debate) and debate.output_of(UNCONFIRMED) is not None,
            notes=debate.output_of(UNCONFIRMED) or "",
        )

    def summary(self, debate: Debate) -> str:
        """The ledger's items with their ids once the front page is final; empty before."""
        if debate.output_of(FRONT) is None or self._repairing(debate):
            return ""
        if not converging(debate):
            return f"🔎 {ledger_text.k('explored')}"
        items = ledger_text.ledger_items(debate.output_of(LEDGER) or "")
        marks = {"agreed": "✅", "amendments": "✏️", "open": "❓"}
        notes = debate.output_of(UNCONFIRMED) or ""
        lines = [
            f"{marks[part]} **{i}** {verbatim(wording)}"
            + ledger_text.unconfirmed_mark(debate, notes, i)
            for i, part, wording in items
        ]
        return "\n".join(lines) or f"📒 {ledger_text.k('none')}"

    def _missing(self, debate: Debate) -> tuple[str, ...]:
        return ledger_text.missing_ids(
            debate.output_of(LEDGER) or "", debate.output_of(FRONT) or ""
        )

    def _repairing(self, debate: Debate) -> bool:
        """The front page lacks a ledger id and its one repair has not come yet."""
        return (
            converging(debate) and debate.output_of(REPAIR) is None and bool(self._missing(debate))
        )

    def _front(self, debate: Debate) -> tuple[str, bool]:
        """The final front page, the first that carries every id, else the plain one; and
        whether the rules wrote it (in locale keys), as the engine recorded it."""
        ledger = debate.output_of(LEDGER) or ""
        for task in (FRONT, REPAIR):
            output = debate.output_of(task)
            if output is not None and (
                not converging(debate) or not ledger_text.missing_ids(ledger, output)
            ):
                return output, by_rules(debate, task)
        return ledger_text.fallback_front(debate, ledger, ()), True

    def _turn_page(self, debate: Debate, number: int, who: str) -> str:
        """`turns/01-ag` (two-party: the turn's number) or `turns/02-ag` (orchestrate: round)."""
        if not orchestrated(debate):
            return f"turns/{number:02d}-{who}"
        rnd = next(
            (r for r in range(1, debate.floor.round + 1) if number in _round_turns(debate, r)),
            debate.floor.round,
        )
        return f"turns/{rnd:02d}-{who}"


def _round(debate: Debate, notices: tuple[Effect, ...] = ()) -> AskStep:
    """A round: everyone at once (orchestrate), else its first participant alone."""
    if orchestrated(debate):
        return AskStep(debate, "round", debate.ids, notices)
    return AskStep(debate, "turn", debate.ids[:1], notices)


def _round_turns(debate: Debate, rnd: int) -> tuple[int, ...]:
    """The turn numbers stored in round `rnd` (kept when the round was done)."""
    stored = debate.output_of(f"round:{rnd}") or ""
    return tuple(int(n) for n in stored.split(",") if n)


def _agreed(debate: Debate) -> bool:
    """Every participant's latest stance is `agree`."""
    return all(debate.stance_of(p) is Stance.AGREE for p in debate.ids)


LEDGER_FORMAT = LedgerFormat()
