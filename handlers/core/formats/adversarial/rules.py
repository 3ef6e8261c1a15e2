"""The `adversarial` format (seeds/003): an intake audit by the moderator, then Advocate,
Challenger and Reconciler (with two consistency probes and a Validator at FULL), under
governance rules that keep argument from outrunning evidence. The Reconciler is final."""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType

from handlers.core.effects import AskDebater, Effect, LogNote, Notify, WritePage
from handlers.core.formats.adversarial.audit import Intake, Tier, rules_audit
from handlers.core.formats.adversarial.briefs import (
    EVIDENCE,
    PROBES,
    audit_of,
    debate_line,
    fallback,
    fitted,
    people_texts,
    role_pieces,
    task_piece,
)
from handlers.core.formats.adversarial.contract import (
    ADVOCATE,
    CHALLENGER,
    RECONCILER,
    negated,
    parse_prefix,
)
from handlers.core.formats.adversarial.contract import missing as missing_parts
from handlers.core.formats.adversarial.decision import adversarial_decision
from handlers.core.formats.adversarial.reply_schema import role_schema
from handlers.core.formats.adversarial.result import Answers, render_result, render_summary
from handlers.core.formats.adversarial.schemas import IntakeTaskReply
from handlers.core.formats.adversarial.seats import (
    RECONCILER_ID,
    ROLES,
    backend_named,
    cost_lines,
    on_tiers,
    reconciler_of,
    role_of,
    tier_lines,
    tier_names,
)
from handlers.core.formats.adversarial.words import audit_notice, reasons_words, word
from handlers.core.formats.base import (
    REPAIR_SUFFIX,
    BriefInput,
    CardOption,
    Format,
    Piece,
    PieceValue,
    is_repair,
    lacks,
    latest_of,
    output_of,
    repair_ask,
    with_output,
)
from handlers.core.formats.decision import DecisionRecord, concluded
from handlers.core.formats.keys import verbatim
from handlers.core.formats.plans import AskStep, EndStep, PeopleStep, Plan, TaskStep
from handlers.core.model import (
    Debate,
    Decision,
    Outcome,
    Participant,
    Turn,
    UserQuestion,
    WikiPage,
)

RESULT_PAGE = "debate-result"
REQUIRED = {"advocate": ADVOCATE, "challenger": CHALLENGER, "reconciler": RECONCILER}


def _role(step: str) -> str:
    return step.removesuffix(REPAIR_SUFFIX)


class AdversarialFormat(Format):
    """Intake, then the tier's roles in the seed's order; the moderator runs the light roles."""

    name = "adversarial"
    parse = staticmethod(parse_prefix)  # line prefixes, as the seed has them
    # The intake audit is one JSON object; the light roles (probes, Validator) answer by prefix.
    task_schemas = MappingProxyType({"intake": IntakeTaskReply})
    card_options: tuple[CardOption, ...] = (CardOption(EVIDENCE),)  # a form: free text

    def allows(self, roster: tuple[Participant, ...]) -> bool:
        """Two debaters to draw Advocate and Challenger from."""
        return len([m for m in roster if m.id != RECONCILER_ID]) >= 2

    def seats_added(
        self, options: tuple[tuple[str, str], ...], language: str = ""
    ) -> tuple[Participant, ...]:
        """The Reconciler, whose backend may be one no participant uses (named in
        `language`, its role's word, where given)."""
        return (reconciler_of(options, language),)

    def start(self, debate: Debate, rng: random.Random) -> Plan:
        """Draw Advocate and Challenger, seat the Reconciler, and audit the context first."""
        roster = tuple(m for m in debate.setup.roster if m.id != RECONCILER_ID)
        pair = [m.id for m in roster[:2]]
        rng.shuffle(pair)
        reconciler = reconciler_of(debate.setup.options, debate.setup.language)
        order = (*pair, reconciler.id)
        opened = replace(
            debate,
            floor=replace(debate.floor, round=1, order=order, spoken=()),
            setup=replace(debate.setup, roster=(*roster, reconciler)),
        )
        return TaskStep(opened, "intake")

    def reply_schema(self, debate: Debate, ask: AskDebater) -> str:
        """The role's RETURN FORMAT, its prefixes checked on the text the schema wraps."""
        return role_schema(_role(ask.step))

    def noted(self, debate: Debate, turn: Turn) -> Debate:
        """Keep the role's answer, and what its contract lacks (for one repair request)."""
        role = role_of(debate, turn.seat)
        wanted = missing_parts(turn.text, REQUIRED[role])
        if role == "challenger":  # "must propose an alternative": "none" is no alternative
            wanted += negated(turn.text)
        gaps = " ".join(lacks(turn, wanted))
        kept = with_output(debate, f"answer:{role}", turn.text)
        return with_output(kept, f"missing:{role}", gaps)

    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        """One repair request for a missing prefix; then the tier's next role."""
        role = _role(debate.floor.step)
        gaps = output_of(debate, f"missing:{role}") if debate.floor.step_turns else ""
        repair = repair_ask(debate, ((self.seat_of(debate, role), gaps),), "adversarial.repair")
        return repair or self._after(debate, role)

    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        """The format never asks for a judgement; a stray one ends the debate."""
        return EndStep(debate, Outcome.CONSENSUS)

    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        """The people added evidence: audit again."""
        return TaskStep(debate, "intake")

    def tasked(self, debate: Debate, task: str, output: str, rng: random.Random) -> Plan:
        """The roles after the audit (or a request for evidence); the result after the Validator."""
        if task == "intake":
            return self._audited(debate)
        posted = Notify("adversarial.validator", (("output", output),))
        logged = LogNote("validator", "note", "Validator", output)
        return self._end(debate, (posted, logged))

    def _audited(self, debate: Debate) -> Plan:
        audit, chosen = audit_of(with_output(debate, "route", ""))  # routed afresh
        if chosen.intake is Intake.INSUFFICIENT:
            notice = Notify("adversarial.insufficient")
            question = UserQuestion(text=audit.request or "CONTEXT-INSUFFICIENT", form=EVIDENCE)
            return PeopleStep(debate, question, (notice,))
        fixed = on_tiers(with_output(debate, "route", chosen.stored()), chosen.tier)
        key = "adversarial.tier_auto" if chosen.auto else "adversarial.tier_chosen"
        reasons = reasons_words(chosen.reasons, ", ", audit)
        notices: list[Effect] = [
            LogNote("debate-line", "note", "", debate_line(audit, chosen)),
            Notify("adversarial.audit", (("block", audit_notice(audit, chosen)),)),
            Notify(key, (("tier", chosen.tier.value), ("reasons", reasons))),
        ]
        if chosen.intake is Intake.THIN:
            thin = reasons_words(chosen.thin, "; ", audit)
            notices.append(Notify("adversarial.thin", (("reasons", thin),)))
        kept, cut = fitted(audit)
        if cut:
            counts = (("kept", str(len(kept))), ("total", str(len(audit.evidence))))
            notices.append(Notify("adversarial.manifest_cut", counts))
        first = "challenger" if chosen.tier is Tier.LITE else "advocate"
        return self._ask(fixed, first, tuple(notices))

    def _ask(self, debate: Debate, role: str, notices: tuple[Effect, ...] = ()) -> Plan:
        seat = self.seat_of(debate, role)
        _, chosen = audit_of(debate)
        tasks = (
            tuple(t for t, _ in PROBES) if role == "challenger" and chosen.tier is Tier.FULL else ()
        )
        said = Notify(f"adversarial.asked_{role}", (("seat", seat), *backend_named(debate, seat)))
        return AskStep(debate, role, (seat,), (*notices, said), tasks)

    def _after(self, debate: Debate, role: str) -> Plan:
        _, chosen = audit_of(debate)
        if role == "advocate":
            return self._ask(debate, "challenger")
        if role == "challenger":
            shown: list[Effect] = []
            if chosen.tier is Tier.FULL:
                for n, (task, _) in enumerate(PROBES, start=1):
                    text = output_of(debate, task)
                    shown += [
                        Notify(f"adversarial.probe_{n}", (("output", text),)),
                        LogNote(task, "note", f"Probe {n}", text),
                    ]
            return self._ask(debate, "reconciler", tuple(shown))
        if chosen.tier is Tier.FULL and output_of(debate, "answer:reconciler"):
            return TaskStep(debate, "validator")
        return self._end(debate)

    def _end(self, debate: Debate, before: tuple[Effect, ...] = ()) -> Plan:
        """The result page; the closing block that names the verdict is the Conclusion."""
        written = with_output(debate, "written", RESULT_PAGE)
        ruled = Outcome.VERDICT if output_of(debate, "answer:reconciler") else Outcome.STOPPED
        return EndStep(written, ruled, (*before, WritePage(RESULT_PAGE)))

    def seat_of(self, debate: Debate, role: str) -> str:
        """The participant playing `role`."""
        return debate.floor.order[ROLES.index(role)]

    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        """A repair sees its own answer; the Challenger the Advocate's; the Reconciler both."""
        role = _role(debate.floor.step)
        if is_repair(debate.floor.step):
            return latest_of(debate, participant)
        wanted = {"challenger": ("advocate",), "reconciler": ("advocate", "challenger")}
        return self._latest(debate, wanted.get(role, ()))

    def _latest(self, debate: Debate, roles: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(n for r in roles for n in latest_of(debate, self.seat_of(debate, r)))

    def _answers(self, shown: tuple[Turn, ...], debate: Debate) -> dict[str, str]:
        return {role_of(debate, t.seat): t.text for t in shown}

    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        """The seed's role brief; a repair adds what was missing and the answer as it was."""
        debate, role = given.debate, _role(given.ask.step)
        answers = self._answers(given.shown, debate)
        own = answers.pop(role, "") if is_repair(given.ask.step) else ""
        pieces = role_pieces(debate, role, answers)
        if not own:
            return pieces
        gaps = output_of(debate, f"missing:{role}")
        return (*pieces, Piece("format_repair", (("missing", gaps), ("answer", own))))

    def task_shows(self, debate: Debate, task: str) -> tuple[int, ...]:
        """Probes read the Advocate; the Validator reads every role."""
        return self._latest(debate, {"intake": (), "validator": ROLES}.get(task, ("advocate",)))

    def task_brief(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> tuple[Piece, ...]:
        """The seed's brief for the task."""
        return (task_piece(debate, task, self._answers(shown, debate)),)

    def task_fallback(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> PieceValue:
        """Rules mode: the audit from inventory lines written out; a light role's not-run answer."""
        if task == "intake":
            return rules_audit(debate.proposal.question, people_texts(debate))
        return fallback(task)

    def page_shows(self, debate: Debate, page: str) -> tuple[int, ...]:
        """Every role's latest answer (the page's cost lines name the model of each)."""
        return self._latest(debate, ROLES)

    def _collected(self, debate: Debate, turns: tuple[Turn, ...] = ()) -> Answers:
        """What the roles answered, as `noted` kept it; the cost lines from `turns`."""
        _, chosen = audit_of(debate)
        probes = tuple(output_of(debate, t) for t, _ in PROBES) if chosen.tier is Tier.FULL else ()
        advocate, challenger, reconciler = (output_of(debate, f"answer:{r}") for r in ROLES)
        return Answers(
            advocate,
            challenger,
            reconciler,
            probes,
            output_of(debate, "validator"),
            cost=cost_lines(debate, turns, chosen.tier),
            tiers=tier_lines(debate, chosen.tier, turns),
            tier_names=tier_names(chosen.tier),
        )

    def render_page(self, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
        """The `debate-result` page."""
        audit, chosen = audit_of(debate)
        body = render_result(audit, chosen, self._collected(debate, turns))
        return f"{verbatim(debate.proposal.topic)} — {word('title')}", body

    def summary(self, debate: Debate) -> str:
        """The closing block that is the Conclusion once the result is written (verdict, confidence,
        validation, caveats); before, none: a Stop ends in the moderator's Conclusion."""
        if not output_of(debate, "written"):
            return ""
        audit, chosen = audit_of(debate)
        return render_summary(audit, chosen, self._collected(debate))

    def closes_itself(self, debate: Debate) -> bool:
        """Once the result is written (the summary is never empty then): asked by the state
        machine and the room, it must not read every role's answer again to say so."""
        return bool(output_of(debate, "written"))

    def decision(self, debate: Debate, turns: tuple[Turn, ...]) -> DecisionRecord:
        """The Reconciler's verdict as the record once the result is written; before (a
        Stop, a failed role), the moderator's Conclusion."""
        if not output_of(debate, "written"):
            return concluded(debate)
        audit, chosen = audit_of(debate)
        return adversarial_decision(audit, chosen, self._collected(debate, turns))

    def estimate(self, debate: Debate) -> tuple[int, int]:
        """Three roles, each with one possible repair; intake, two probes, the Validator."""
        return 6, 4

    def pages(self, debate: Debate) -> tuple[str, ...]:
        """Agenda, Round-Log, and the result once written (else the moderator's Conclusion)."""
        last = RESULT_PAGE if output_of(debate, "written") else WikiPage.CONCLUSION.value
        return WikiPage.AGENDA.value, WikiPage.ROUND_LOG.value, last


ADVERSARIAL = AdversarialFormat()
