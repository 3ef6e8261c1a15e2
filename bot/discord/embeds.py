"""The front end's own embeds: the approval card, the status line, questions and the end."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.formatting import (
    MODERATOR_GREY,
    USER_AMBER,
    claim_lines,
    cost_estimate,
    discord_time,
    format_label,
    page_label,
    pause_words,
    precedent_why,
    roster_line,
    suggestion,
)
from handlers.core.formats import format_named
from handlers.core.i18n import Strings
from handlers.core.model import Conclusion, Debate, UserQuestion
from handlers.core.shorten import shorten
from handlers.core.spending.limits import cost_per_seat

GREY = discord.Colour(MODERATOR_GREY)
AMBER = discord.Colour(USER_AMBER)  # decisions the people make
MINUTES_PER_TURN = (2, 4)  # one full-text turn, low and high estimate
FIELD_LIMIT = 1024
QUESTION_LIMIT = 4000  # an embed's description holds 4096
BUTTON_LABEL_LIMIT = 80
MAX_BUTTONS = 25  # per message: more options are listed in the question only


def card_embed(
    debate: Debate, strings: Strings, *, closed: bool = False, decided_by: int | None = None
) -> discord.Embed:
    """The approval card; once closed it says how it ended, and who ended it."""
    proposal = debate.proposal
    rounds = debate.setup.max_rounds
    turns, requests = format_named(debate.setup.format).estimate(debate)
    embed = discord.Embed(title=strings("front.card_title"), colour=GREY)
    _field(embed, strings("front.card_topic"), proposal.topic)
    _field(embed, strings("front.card_question"), proposal.question)
    value = strings(
        "front.card_format_value",
        format=format_label(strings, debate.setup.format),
        rounds=rounds,
        low=turns * MINUTES_PER_TURN[0],
        high=turns * MINUTES_PER_TURN[1],
        requests=requests,
    )
    with_suggestion = "\n".join(filter(None, (value, suggestion(debate, strings))))
    _field(embed, strings("front.card_format"), with_suggestion)
    names = {m.id: m.name for m in debate.setup.roster}
    _field(embed, strings("front.card_participants"), roster_line(debate, strings, names))
    embed.add_field(
        name=strings("credit.card"),
        value=shorten(cost_estimate(debate, strings, discord_time), FIELD_LIMIT),
    )
    if debate.setup.added:  # the card's forms: whose text is kept (each is handed on whole)
        counts = [(a.who or "-", len(a.text)) for a in debate.setup.added]
        kept = "\n".join(f"{who}: {strings('front.form_added', count=n)}" for who, n in counts)
        _field(embed, strings("front.card_added"), kept)
    if proposal.precedents:
        lines = [
            strings(
                "precedents.line",
                title=p.title,
                url=p.url,
                excerpt=p.excerpt,
                why=precedent_why(p, strings),
            )
            for p in proposal.precedents
        ]
        _field(embed, strings("precedents.card"), "\n".join(lines))
    if closed:
        # In the description, where a mention shows as a name (embeds never ping).
        who = f"<@{decided_by}>" if decided_by else "-"
        embed.description = strings(f"front.card_{debate.phase.value}", user=who)
    return embed


def claims_embed(debate: Debate, strings: Strings) -> discord.Embed:
    """The claim board (the thread's second pin; whole on the Conclusion page when cut)."""
    lines, body = claim_lines(debate, strings), ""
    for index, line in enumerate(lines):
        if len(body) + len(line) + 200 > QUESTION_LIMIT:
            body += strings("claims.cut", count=len(lines) - index)
            break
        body += line + "\n"
    return discord.Embed(title=strings("claims.title"), description=body.strip(), colour=GREY)


def budget_label(debate: Debate, rounds: int, strings: Strings) -> str:
    """`4 rounds · about 16-32 min · about 10 moderator requests`: one budget on the card."""
    turns, requests = format_named(debate.setup.format).estimate(
        replace(debate, setup=replace(debate.setup, max_rounds=rounds))
    )
    low, high = (turns * minutes for minutes in MINUTES_PER_TURN)
    return strings("budget.option", rounds=rounds, low=low, high=high, requests=requests)


def budget_embed(debate: Debate, strings: Strings) -> discord.Embed:
    """A pause (the budget, converging without concluding, a limit), amber: the people decide."""
    title, body = pause_words(debate, strings, discord_time)
    return discord.Embed(title=title, description=body, colour=AMBER)


def question_body(question: UserQuestion) -> str:
    """The question, and its options in full when a button cannot show one whole."""
    fits = len(question.options) <= MAX_BUTTONS
    if fits and all(len(option) <= BUTTON_LABEL_LIMIT for option in question.options):
        return question.text
    listed = "\n".join(f"{i}. {option}" for i, option in enumerate(question.options, 1))
    return f"{question.text}\n\n{listed}"


def question_embed(question: UserQuestion, strings: Strings) -> discord.Embed:
    """The moderator's question to the people, amber."""
    # Longer than an embed holds: the room posts the whole question just before this one.
    body = shorten(
        question_body(question),
        QUESTION_LIMIT,
        lambda n: strings("front.cut_question", omitted=n),
    )
    return discord.Embed(title=strings("front.question_title"), description=body, colour=AMBER)


SUMMARY_LIMIT = 4000  # an embed's description holds 4096 characters


def conclusion_embed(
    debate: Debate, conclusion: Conclusion, links: dict[str, str], strings: Strings
) -> discord.Embed:
    """The final summary, grey, with the decision, agreed and open points, and the pages."""
    decision = _whole_on_wiki(conclusion.decision, strings, QUESTION_LIMIT)
    embed = discord.Embed(
        title=strings("front.conclusion_title"), description=decision, colour=GREY
    )
    sections = (("agreed", conclusion.agreed), ("open", conclusion.open_issues))
    for key, points in sections:
        if points:
            listed = _whole_on_wiki("\n".join(f"• {p}" for p in points), strings)
            embed.add_field(name=strings(f"front.conclusion_{key}"), value=listed, inline=False)
    _add_page_links(embed, debate.setup.format, links, strings)
    embed.set_footer(text=strings("credit.per_seat", seats=cost_per_seat(debate)))
    return embed


def _add_page_links(
    embed: discord.Embed, format_name: str, links: dict[str, str], strings: Strings
) -> None:
    """The pages as links, if any; a format's own page is named by the format's strings."""
    named = [
        f"[{page_label(strings, format_name, page)}]({url})"
        for page, url in links.items()
        if url.startswith("http")
    ]
    if named:
        _field(embed, strings("front.conclusion_pages"), " · ".join(named))


def summary_embed(
    format_name: str,
    markdown: str,
    links: dict[str, str],
    strings: Strings,
    *,
    closing: bool = False,
) -> discord.Embed:
    """A format's closing block, grey, with its pages; titled as the Conclusion if `closing`."""
    # Cut to fit, saying so and where the whole is: the pages below.
    markdown = shorten(markdown, SUMMARY_LIMIT, lambda _: "\n\n" + strings("front.summary_cut"))
    title = strings("front.conclusion_title" if closing else "front.summary_title")
    embed = discord.Embed(title=title, description=markdown, colour=GREY)
    _add_page_links(embed, format_name, links, strings)
    return embed


def _field(embed: discord.Embed, name: str, value: str) -> None:
    """A field the embed's full width, cut to fit."""
    embed.add_field(name=name, value=shorten(value, FIELD_LIMIT), inline=False)


def _whole_on_wiki(text: str, strings: Strings, limit: int = FIELD_LIMIT) -> str:
    """A Conclusion's text, saying where the whole is when it does not fit."""
    return shorten(text, limit, lambda n: strings("front.cut_conclusion", omitted=n))
