"""What both front ends show of a debate, worded once: the colours, the status line, a turn's
author and footer, a page's name. The Discord front and the console only lay them out."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from handlers.core.anonymous.peers import is_on
from handlers.core.formats import format_named, formats_for
from handlers.core.formats.base import CardOption
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Debate, Participant, Phase, Precedent, Turn
from handlers.core.people.pauses import meter
from handlers.core.shorten import shorten
from handlers.core.spending.limits import LIMIT_PAUSES, cost_per_seat
from handlers.core.spending.state import DEFAULT_TURN_USD
from handlers.core.wiki.names import page_word
from tools.wiki.backends import ASSET_SUFFIXES

AG_GREEN = 0x2ECC71
CLAUDE_BLUE = 0x3498DB
MODERATOR_GREY = 0x95A5A6
USER_AMBER = 0xF5A623  # decisions the people make
WARNING_ORANGE = 0xE67E22
SEAT_COLOURS = {AG: AG_GREEN, CLAUDE: CLAUDE_BLUE}  # the default roster's
SHA_DIGITS = 12  # of a reply's SHA-256, shown under each turn


def hex_colour(colour: int) -> str:
    """`#2ECC71`: a colour as the console (rich) names it."""
    return f"#{colour:06X}"


def roster_line(debate: Debate, strings: Strings, names: dict[str, str]) -> str:
    """The card's participants line as the debate's format words it, in the reader's language
    (and, with anonymous peers, that each reads the others by letters)."""
    line = fill_keys(format_named(debate.setup.format).card_roster(debate, names), strings)
    return f"{line}\n{strings('front.card_anonymous')}" if is_on(debate) else line


def precedent_why(found: Precedent, strings: Strings) -> str:
    """Why an earlier decision is shown: the proposal's words it matched on."""
    return strings("precedents.why", because=", ".join(found.because) or "-")


def format_label(strings: Strings, name: str) -> str:
    """A format's name for people (`front.format_<name>`), else its own (a new one needs none)."""
    key = f"front.format_{name}"
    return strings(key) if strings.has(key) else name


# A notice's params written in a format's `⟦keys⟧`.
KEYED_PARAMS = ("block", "reasons", "outcome", "why", "task")


def local_time(epoch: int) -> str:
    """`2026-12-02 07:45 UTC`: a moment in this machine's time zone (the console's)."""
    return datetime.fromtimestamp(epoch).astimezone().strftime("%Y-%m-%d %H:%M %Z")


def discord_time(epoch: int) -> str:
    """A moment as Discord shows it: in each reader's own language and time zone."""
    return f"<t:{epoch}:f> (<t:{epoch}:R>)"


def notice_params(
    strings: Strings, params: dict[str, str], when: Callable[[int], str] = local_time
) -> dict[str, str]:
    """A notice's values as people read them: a failure's `kind` named through the [failure]
    table, a format's `block` and `reasons` with their `⟦area.key⟧` words filled (what they
    quote verbatim), a moment `at` (epoch seconds) as `when` words it."""
    said = dict(params)
    if said.get("at", "").isdigit():
        said["at"] = when(int(said["at"]))
    if "kind" in said:
        said["kind"] = strings(f"failure.{said['kind']}")
    for name in KEYED_PARAMS:
        if name in said:
            said[name] = fill_keys(said[name], strings)
    return said


def option_question(strings: Strings, key: str) -> str:
    """A format's setup question for people (`front.option_<key>`, dots as underscores), or ""."""
    name = f"front.option_{key.replace('.', '_')}"
    return strings(name) if strings.has(name) else ""


def form_word(strings: Strings, key: str, word: str) -> str:
    """The locale key of a form's `word` (`form_title`, `form_label`, `form_kept`): the form's
    own (`front.<word>_<key>`), else its format's (`front.<word>_<format>`), else the shared."""
    own = f"front.{word}_{key.replace('.', '_')}"
    of_format = f"front.{word}_{key.partition('.')[0]}"
    return next((k for k in (own, of_format) if strings.has(k)), f"front.{word}")


def offers_a_choice(debate: Debate, option: CardOption) -> bool:
    """False for a pick of members when the card has only two (both sit: nothing to pick)."""
    return not option.members or len(debate.setup.roster) > 2


def option_label(strings: Strings, key: str, choice: str) -> str:
    """`question: answer` of a format's setup choice (without locale entries, `key: choice`)."""
    answer_key = f"front.option_{key.replace('.', '_')}_{choice}"
    answer = strings(answer_key) if strings.has(answer_key) else choice
    return f"{option_question(strings, key) or key}: {answer}"


def suggestion(debate: Debate, strings: Strings) -> str:
    """`🧭 The moderator suggests X: why`, when it suggested a format this roster can run."""
    proposal = debate.proposal
    name = proposal.suggested_format
    if not (proposal.format_reason and name in formats_for(debate.setup.roster)):
        return ""
    label = format_label(strings, name)
    return strings("front.card_suggested", format=label, reason=proposal.format_reason)


def cost_estimate(debate: Debate, t: Strings, when: Callable[[int], str] = local_time) -> str:
    """The card's money lines: each seat's estimate and its source, the budget, Claude's window."""
    spend = debate.spend
    fmt = format_named(debate.setup.format)
    turns, _ = fmt.estimate(debate)
    # The roster and the seats the format adds beside it (the adversarial Reconciler) share
    # the turns; a seat a person types costs nothing.
    added = fmt.seats_added(debate.setup.options, debate.spoken_in(t.language))
    members = tuple({m.id: m for m in (*debate.setup.roster, *added)}.values())
    share = turns / max(len(members), 1)
    per_turn = dict(spend.per_turn)

    def priced(m: Participant) -> str:
        if m.id in spend.typed:
            return t("credit.typed_seat", name=m.name)
        usd = per_turn.get(m.id, DEFAULT_TURN_USD.get(m.backend.value, 0.0)) * share
        return f"{m.name} ≈ ${usd:.2f}"

    seats = " · ".join(priced(m) for m in members)
    if all(m.id in spend.typed for m in members):  # people type every seat: nothing to estimate
        return t("credit.all_typed")
    source = (
        t("credit.from_turns", count=spend.recorded)
        if spend.recorded
        else t("credit.from_default", usd=f"{DEFAULT_TURN_USD['claude-cli']:.2f}")
    )
    lines = [t("credit.estimate", seats=seats, source=source)]
    if spend.budget_usd:
        lines.append(t("credit.budget", usd=f"{spend.budget_usd:.2f}"))
    window = spend.window
    if window is not None and window.utilization is not None:
        at = when(window.resets_at) if window.resets_at else "-"
        percent = round(window.utilization * 100)
        lines.append(t(f"credit.window_{window.status or 'allowed'}", percent=percent, at=at))
    return "\n".join(lines)


def pause_area(debate: Debate) -> str:
    """The locale area of a pause's words and buttons."""
    if debate.people.paused in LIMIT_PAUSES:
        return "limits"
    return "budget" if debate.people.paused in ("budget", "spent") else "convergence"


def pause_words(
    debate: Debate, t: Strings, when: Callable[[int], str] = local_time
) -> tuple[str, str]:
    """A pause's title and body: a limit (with its reset time), the budget, or converging."""
    area = pause_area(debate)
    if area == "limits":
        at = _resumes(debate, when)
        return t(f"limits.title_{debate.people.paused}"), t(
            f"limits.body_{debate.people.paused}", at=at
        )
    dollars = debate.people.paused == "spent" or debate.spend.over(debate.spend.cost_usd)
    if area == "budget" and dollars:
        usd, spent = f"{debate.spend.budget_usd:.2f}", f"{debate.spend.cost_usd:.2f}"
        return t("budget.title"), t("budget.body_usd", usd=usd, cost=spent)
    if area == "budget":
        return t("budget.title"), t("budget.body", rounds=debate.setup.max_rounds)
    latest = debate.moderation.consensus_trend[-1] if debate.moderation.consensus_trend else 0.0
    bars = meter(debate.moderation.consensus_trend)
    return t("convergence.title"), t("convergence.body", bars=bars, percent=round(latest * 100))


def _resumes(debate: Debate, when: Callable[[int], str]) -> str:
    return when(int(debate.spend.resumes_at.timestamp())) if debate.spend.resumes_at else "-"


def claim_lines(debate: Debate, strings: Strings) -> list[str]:
    """The claim board, one line a claim: id, status, who holds it, its wording."""
    return [
        strings(
            "claims.line",
            id=claim.id,
            status=strings(f"claims.{claim.status.value}"),
            holders=", ".join(debate.name_of(h) for h in claim.holders) or strings("claims.nobody"),
            text=claim.text,
        )
        for claim in debate.moderation.claims
    ]


def seat_colour(seat: str, debate: Debate | None = None) -> int:
    """The participant's colour: the roster's, or the default roster's without a debate."""
    if debate is not None:
        return debate.member(seat).colour
    return SEAT_COLOURS.get(seat, AG_GREEN)


def seat_name(t: Strings, seat: str, debate: Debate | None = None, area: str = "discord") -> str:
    """The default roster's names come from the locale files (the console's are shorter: it
    names a person's seat too); others are the roster's."""
    key = f"{area}.seat_{seat}"
    if t.has(key):
        return t(key)
    return debate.name_of(seat) if debate is not None else seat


def status_line(
    debate: Debate,
    t: Strings,
    now: datetime,
    when: Callable[[int], str] = local_time,
    *,
    rules_only: bool = False,
) -> str:
    """`라운드 1/6 · 발언: Claude · 경과 3분 · 비용 $0.04 · 사회자: Gemini`, or the end state;
    then the convergence meter (`합의 ▃▅▇ 80%`) once the moderator judged, and the cost per seat."""
    started = debate.setup.started_at or now
    common = {
        "round": debate.floor.round,
        "max": debate.setup.max_rounds,
        "minutes": int(((debate.ending.ended_at or now) - started).total_seconds() // 60),
        "cost": f"{debate.spend.cost_usd:.2f}",
        "mode": t(f"front.mode_{'rules' if rules_only else debate.moderation.source.value}"),
    }
    if debate.phase.is_terminal:
        outcome = t(f"front.outcome_{(debate.ending.outcome or 'stopped')}")
        parts = [t("front.status_ended", outcome=outcome, **common)]
    else:
        parts = [_status_words(debate, t, common, when)]
        if trend := debate.moderation.consensus_trend:
            parts.append(t("convergence.meter", bars=meter(trend), percent=round(trend[-1] * 100)))
    return " · ".join([*parts, t("credit.per_seat", seats=cost_per_seat(debate))])


def _status_words(
    debate: Debate, t: Strings, common: dict[str, object], when: Callable[[int], str]
) -> str:
    if debate.people.paused in LIMIT_PAUSES:
        why = t(f"limits.why_{debate.people.paused}", at=_resumes(debate, when))
        return t("limits.status", why=why, **common)
    if debate.phase is Phase.AWAITING_USER:
        waiting = "poll.status" if debate.people.paused == "poll" else "front.status_waiting"
        return t(waiting, **common)
    speaker = t("front.moderator")  # judging, concluding: the moderator has the floor
    if debate.phase is Phase.SPEAKING and debate.floor.speaker is not None:
        asked = [ask.participant for ask in debate.floor.asked] or [debate.floor.speaker]
        speaker = ", ".join(debate.name_of(p) for p in asked)
    return t("front.status_running", speaker=speaker, **common)


def author_line(turn: Turn, t: Strings, debate: Debate | None = None, area: str = "discord") -> str:
    """`Claude Code (sonnet)`: the debater, and the model when known."""
    name = seat_name(t, turn.seat, debate, area)
    if not turn.meta.model:
        return name
    return shorten(t("discord.author", name=name, model=turn.meta.model), 256)


def question_label(
    turn: Turn, t: Strings, debate: Debate | None = None, area: str = "discord"
) -> str:
    """Whom a turn's question asks: the people, or the other seats by name."""
    if turn.parsed.question is not None and turn.parsed.question.to == "user":
        return t(f"{area}.question_to_user")
    others = [p for p in (debate.ids if debate else (AG, CLAUDE)) if p != turn.seat]
    names = ", ".join(seat_name(t, p, debate, area) for p in others)
    return t(f"{area}.question_to_opponent", name=names)


def footer_text(turn: Turn, t: Strings) -> str:
    """`턴 1 · 1,240 토큰 · $0.02 · 41초 · sha256 3f9a1c0b2e7d`; unknown figures are left out."""
    meta = turn.meta
    parts = [t("discord.footer_turn", turn=turn.number)]
    if tokens := meta.input_tokens + meta.output_tokens:
        parts.append(t("discord.footer_tokens", tokens=f"{tokens:,}"))
    if meta.cost_usd:
        parts.append(t("discord.footer_cost", cost=f"{meta.cost_usd:.2f}"))
    seconds = round(meta.latency_s)
    if seconds >= 60:
        parts.append(t("discord.footer_minutes", minutes=seconds // 60, seconds=seconds % 60))
    else:
        parts.append(t("discord.footer_seconds", seconds=seconds))
    stance = turn.parsed.stance if turn.parsed.structured else None
    if stance is not None:
        parts.append(t(f"discord.stance_{stance.value}"))
    parts.append(t("discord.footer_sha", sha=turn.sha256[:SHA_DIGITS]))
    return " · ".join(parts)


def page_label(
    t: Strings, own: str, page: str, debate: Debate | None = None, area: str = "discord"
) -> str:
    """A wiki page's name for people: its format's (`own`) or the engine's word, by seat, or its
    path."""
    if word := page_word(t, own, page):
        return word
    head, _, rest = page.partition("/")
    if head == "turns" and (parts := rest.partition("-"))[0].isdigit():
        return t("front.page_turn", turn=int(parts[0]), seat=seat_name(t, parts[2], debate, area))
    if head.startswith("round-") and rest:
        round_ = head.removeprefix("round-")
        return t("front.page_round", round=round_, seat=seat_name(t, rest, debate, area))
    return page


def page_links(
    t: Strings, debate: Debate, url: Callable[[str], str], area: str = "discord"
) -> tuple[tuple[str, str], ...]:
    """Each page the debate's format wrote, by its name for people, and where it is read (a
    file beside one, such as a diagram, is left to the page that shows it)."""
    own = debate.setup.format
    pages = format_named(own).pages(debate)
    return tuple(
        (page_label(t, own, page, debate, area), url(page))
        for page in pages
        if not page.endswith(ASSET_SUFFIXES)
    )


def page_keys(debate: Debate, links: dict[str, str]) -> dict[str, str]:
    """Where each page is read, by the locale key of its name (`boardroom.page_synthesis`):
    a closing block naming a page by its key links it (`fill_keys`)."""
    own = debate.setup.format
    return {f"{own}.page_{page.replace('-', '_')}": url for page, url in links.items()}
