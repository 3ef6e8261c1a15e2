"""The adversarial format's intake audit: read from the moderator's JSON, checked, and routed
to a tier by the seed's structural checklist (code, not the model, decides the tier)."""

from __future__ import annotations

import enum
import json
import re
from dataclasses import asdict, dataclass

from handlers.core.formats.base import strings
from handlers.core.formats.line_marks import candidates
from handlers.core.reply.parser import task_object

STANCES = ("supports", "against", "mixed", "context")
_FLAG = re.compile(r"(?<![\w-])--(lite|standard|full)\b", re.IGNORECASE)
_ID = re.compile(r"E\d{1,6}")
_GAPS_LABEL = "KNOWN_GAPS:"
_GAPS = re.compile(re.escape(_GAPS_LABEL), re.IGNORECASE)
_NONE = frozenset({"none", "없음", "nenhuma", "nenhum", "-"})
# Why the routing chose a tier or flagged the context: each a name of the locale's
# `adversarial.reason.<name>` (the roles read its English, the seed's words; people their
# language: words.py). A COUNTED one reads `evidence=<n> ...`, the inventory's size.
COUNTED = ("lite_only", "within_six")


class Tier(enum.StrEnum):
    """How many roles run."""

    LITE = "LITE"
    STANDARD = "STANDARD"
    FULL = "FULL"


class Intake(enum.StrEnum):
    """The audit's verdict on the context."""

    READY = "debate-ready"
    THIN = "context-thin"
    INSUFFICIENT = "context-insufficient"


@dataclass(frozen=True)
class Evidence:
    """One inventory item, with its stable id."""

    id: str
    item: str
    stance: str


@dataclass(frozen=True)
class Audit:
    """The intake audit's fields."""

    proposition: str
    decision_focus: str = ""
    evidence: tuple[Evidence, ...] = ()
    known_gaps: tuple[str, ...] | None = None  # None: the audit omitted them (unknown)
    optional_state: tuple[str, ...] = ()
    constraints: str = ""
    binary_choice: bool = False
    high_stakes: bool = False
    competing_options: int = 0
    state_uncertain: bool = False
    gap_conflict: bool = False
    request: str = ""  # what to ask the people for when the evidence is insufficient

    @property
    def ids(self) -> tuple[str, ...]:
        """The inventory's ids."""
        return tuple(item.id for item in self.evidence)


def _evidence(value: object) -> tuple[Evidence, ...]:
    """Concrete items only, in order, each with the id it was given (`E2` stays `E2`: the
    people and every role cite it) or, without one, the next id not yet taken."""
    items: list[tuple[str, str, str]] = []
    for raw in value if isinstance(value, list) else []:
        fields = raw if isinstance(raw, dict) else {"item": raw}
        text = str(fields.get("item", "")).strip()
        stance = str(fields.get("stance", "context")).strip().casefold()
        given = str(fields.get("id", "")).strip().upper()
        if text:
            items.append((given, text, stance if stance in STANCES else "context"))
    taken = {given for given, _, _ in items if _ID.fullmatch(given)}
    numbers = (f"E{n}" for n in range(1, len(items) + len(taken) + 2))
    evidence: list[Evidence] = []
    for given, text, stance in items:
        kept = given if _ID.fullmatch(given) and given not in {e.id for e in evidence} else ""
        if not kept:
            kept = next(n for n in numbers if n not in taken)
            taken.add(kept)
        evidence.append(Evidence(kept, text, stance))
    return tuple(evidence)


def read_audit(output: str, fallback_proposition: str) -> Audit:
    """The audit from the moderator's JSON; anything unreadable counts as no evidence."""
    data = task_object(output)
    gaps = data.get("known_gaps")
    options = data.get("competing_options", 0)
    return Audit(
        proposition=str(data.get("proposition") or fallback_proposition).strip(),
        decision_focus=str(data.get("decision_focus") or "").strip(),
        evidence=_evidence(data.get("evidence")),
        known_gaps=None if gaps is None else strings(gaps),
        optional_state=strings(data.get("optional_state")),
        constraints=str(data.get("constraints") or "").strip(),
        binary_choice=data.get("binary_choice") is True,
        high_stakes=data.get("high_stakes") is True,
        competing_options=options if isinstance(options, int) else 0,
        state_uncertain=data.get("state_uncertain") is True,
        gap_conflict=data.get("gap_conflict") is True,
        request=str(data.get("request") or "").strip(),
    )


def rules_audit(proposition: str, texts: tuple[str, ...]) -> str:
    """A deterministic audit (the moderator model unavailable): only inventory lines written
    in the seed's shape (`E1 | item | supports`) count as evidence, with the ids as written;
    `KNOWN_GAPS:` lines give the gaps (unknown without one)."""
    items: list[dict[str, str]] = []
    for text in texts:
        for line in _lines_with(text, "|"):
            item = _inventory_line(line)
            if item is not None:
                items.append(item)
    audit: dict[str, object] = {"proposition": proposition, "evidence": items}
    gaps = typed_gaps(texts)
    if gaps is not None:
        audit["known_gaps"] = list(gaps)
    return json.dumps(audit, ensure_ascii=False)


def typed_gaps(texts: tuple[str, ...]) -> tuple[str, ...] | None:
    """The gaps the people typed in the seed's envelope: `KNOWN_GAPS: a; b` on the label's
    line and the `- gap` lines under it, up to the first line that is no bullet ("none"
    names no gap); None if no text has the label. Each line is read once: the next label is
    looked for after the bullets."""
    gaps: list[str] | None = None
    for text in texts:
        end = 0
        while (found := _GAPS.search(text, end)) is not None:
            start = text.rfind("\n", 0, found.start()) + 1
            end = text.find("\n", found.end())
            end = len(text) if end < 0 else end
            head, _, named = text[start:end].strip().lstrip("-* ").partition(":")
            if head.strip().upper() == _GAPS_LABEL[:-1]:
                bullets, end = _bullets(text, end)
                gaps = (gaps or []) + [g.strip() for g in named.split(";")] + bullets
    return None if gaps is None else tuple(g for g in gaps if g and g.casefold() not in _NONE)


def _bullets(text: str, end: int) -> tuple[list[str], int]:
    """The `- item` lines right after position `end` (a line's end), and where they end."""
    found: list[str] = []
    while end < len(text):
        after = text.find("\n", end + 1)
        after = len(text) if after < 0 else after
        line = text[end + 1 : after].strip()
        if line[:1] not in ("-", "*"):
            break
        found.append(line[1:].strip())
        end = after
    return found, end


def _lines_with(text: str, mark: str) -> list[str]:
    """The lines of `text` that hold `mark`, each once, found by one scan for the mark (a
    reply of a million blank lines costs that scan, not a million steps)."""
    lines: list[str] = []
    for start, at in candidates(text, re.compile(re.escape(mark)), len(text) + 1):
        end = text.find("\n", at)
        lines.append(text[start:] if end < 0 else text[start:end])
    return lines


def _inventory_line(line: str) -> dict[str, str] | None:
    """`- E1 | item | supports` as its parts (any case, any padding), else None; split, not
    matched, so no line can make a pattern backtrack."""
    if line.count("|") != 2:  # counted before split: a line of pipes is no item
        return None
    parts = line.strip().lstrip("-*").split("|")
    given, item, stance = (part.strip() for part in parts)
    if not _ID.fullmatch(given.upper()) or not item or stance.casefold() not in STANCES:
        return None
    return {"id": given.upper(), "item": item, "stance": stance.casefold()}


def requested_tier(texts: tuple[str, ...]) -> Tier | None:
    """The tier the people asked for by a seed flag (`--lite`, `--full`, ...); the last one wins."""
    flags = [m.group(1).upper() for text in texts for m in _FLAG.finditer(text)]
    return Tier(flags[-1]) if flags else None


@dataclass(frozen=True)
class Route:
    """The tier, why (reason names), whether it was detected, the intake status and why thin."""

    tier: Tier
    reasons: tuple[str, ...]
    auto: bool
    intake: Intake
    thin: tuple[str, ...] = ()

    def stored(self) -> str:
        """As kept in the debate's outputs, fixed when the audit came in."""
        return json.dumps(asdict(self))

    @staticmethod
    def read(stored: str) -> Route:
        data = json.loads(stored)
        tier, intake = Tier(data["tier"]), Intake(data["intake"])
        return Route(tier, tuple(data["reasons"]), data["auto"], intake, tuple(data["thin"]))


def route(audit: Audit, requested: Tier | None) -> Route:
    """The seed's routing checklist, then the context checks."""
    count = len(audit.evidence)
    if count == 0:
        return Route(
            requested or Tier.STANDARD, ("no_evidence",), requested is None, Intake.INSUFFICIENT
        )
    thin: list[str] = []
    reasons: tuple[str, ...]
    if audit.known_gaps is None:
        thin.append("gaps_omitted")
    if requested is not None:
        tier, reasons, auto = requested, ("requested",), False
        if tier is not Tier.LITE and count < 2:
            thin.append("exceeds_depth")
    else:
        tier, reasons = checklist(audit)
        auto = True
        if tier is not Tier.LITE and count < 2:
            tier, reasons = Tier.LITE, (*reasons, "lite_only")
    intake = Intake.THIN if thin else Intake.READY
    return Route(tier, reasons, auto, intake, tuple(thin))


def checklist(audit: Audit) -> tuple[Tier, tuple[str, ...]]:
    """LITE only if all its conditions hold; FULL if any of its conditions holds; else STANDARD."""
    count = len(audit.evidence)
    full = [
        reason
        for holds, reason in (
            (audit.high_stakes, "high_stakes"),
            (audit.competing_options > 1, "competing"),
            (audit.state_uncertain, "uncertain"),
            (audit.gap_conflict, "gap_conflict"),
        )
        if holds
    ]
    bounded = audit.binary_choice and count <= 6
    if bounded and not audit.high_stakes and not audit.state_uncertain and not full:
        return Tier.LITE, ("bounded", "within_six")
    if full:
        return Tier.FULL, tuple(full)
    return Tier.STANDARD, ("multi_factor",)


def opposition_present(audit: Audit) -> bool:
    """True if both support and opposition are in the inventory."""
    stances = {item.stance for item in audit.evidence}
    return bool(stances & {"supports", "mixed"}) and bool(stances & {"against", "mixed"})
