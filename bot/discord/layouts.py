"""The card, the pinned status and the closing summary as Discord's layout components
(components v2): a container in the embed's colour holding text, with each control beside the
text it acts on (a section's accessory) or in a row under it.

Pure: they build `discord.ui.LayoutView`s and send nothing. A layout message carries no
`content` or `embeds` (Discord refuses them with the IS_COMPONENTS_V2 flag, which discord.py
sets for a LayoutView), at most 40 components and 4000 characters of text in all: text that
does not fit is cut, saying so and where the whole is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.discord import embeds
from bot.discord.views import DebateButton, card_controls
from bot.formatting import form_word, page_label
from handlers.core.i18n import Strings
from handlers.core.model import Conclusion, Debate
from handlers.core.shorten import omitted_note, shorten
from handlers.core.spending.limits import cost_per_seat

TEXT_TOTAL = 4000  # characters of text across a message's text displays
COMPONENTS_TOTAL = 40  # components in one message, nested ones included
BUTTONS_PER_ROW = 5
Layout = discord.ui.LayoutView
Item = discord.ui.Item[Any]
Note = Callable[[int], str]


def fit(texts: Sequence[str], room: int, note: Note = omitted_note) -> list[str]:
    """`texts` within `room` characters together: the longest are cut first, each to the same
    length, with `note(omitted)` saying so; texts that fit are kept whole."""
    if sum(map(len, texts)) <= room:
        return list(texts)
    lengths = sorted(len(text) for text in texts)
    cap, left = 0, room
    for index, length in enumerate(lengths):  # the largest cap the shorter ones leave room for
        share = left // (len(lengths) - index)
        if length > share:
            cap = share
            break
        left -= length
    return [shorten(text, cap, note) if len(text) > cap else text for text in texts]


def _box(colour: discord.Colour | None, *items: Item) -> discord.ui.Container[Any]:
    """A container in `colour` (the embed's colour) holding `items`."""
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=colour)
    for item in items:
        box.add_item(item)
    return box


def _text(text: str) -> discord.ui.TextDisplay[Any]:
    return discord.ui.TextDisplay(text)


def _rows(buttons: Sequence[Item]) -> list[discord.ui.ActionRow[Any]]:
    """Buttons in rows of five."""
    return [
        discord.ui.ActionRow(*buttons[i : i + BUTTONS_PER_ROW])
        for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]


def _view(*items: Item) -> Layout:
    view = Layout(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def card_layout(
    debate: Debate, strings: Strings, *, closed: bool = False, decided_by: int | None = None
) -> Layout:
    """The approval card: what is proposed, the menus to choose with, each form beside what it
    asks for, Open / Not now at the bottom; once closed, how it ended and no controls."""
    embed = embeds.card_embed(debate, strings, closed=closed, decided_by=decided_by)
    controls = card_controls(debate, strings)
    asks = [form_word(strings, key, "form_label") for key, _ in controls.forms]
    fields = [f"**{field.name}**\n{field.value}" for field in embed.fields]
    head = [f"## {embed.title}", *([embed.description] if embed.description else [])]
    room = TEXT_TOTAL - sum(map(len, head)) - (0 if closed else sum(map(len, map(strings, asks))))
    items: list[Item] = [_text("\n".join(head)), *map(_text, fit(fields, room))]
    if not closed:
        items.append(discord.ui.Separator())
        items += [discord.ui.ActionRow(menu) for menu in controls.menus]
        items += _rows(controls.steps)
        for ask, (_, button) in zip(asks, controls.forms, strict=True):
            items.append(discord.ui.Section(_text(f"📎 {strings(ask)}"), accessory=button))
        items.append(discord.ui.ActionRow(*controls.answers))
    return _view(_box(embed.colour, *items))


def status_layout(text: str, controls: Sequence[DebateButton]) -> Layout:
    """The pinned status line with Stop beside it and the other controls under it (none once
    the debate ended)."""
    text = shorten(text, TEXT_TOTAL)
    if not controls:
        return _view(_text(text))
    first, *rest = controls
    return _view(discord.ui.Section(_text(text), accessory=first), *_rows(rest))


def conclusion_layout(
    debate: Debate,
    conclusion: Conclusion,
    links: dict[str, str],
    strings: Strings,
    *,
    decided: str = "",
) -> Layout:
    """The final summary, grey (amber when the people's poll `decided`): the decision under
    the title, the people's decision, the agreed and open points, the pages, the cost per seat;
    cut to fit, saying the whole is on the wiki."""
    fixed = [f"**{strings('poll.decision_title')}**\n{decided}"] if decided else []
    pages = _pages(debate.setup.format, links, strings)
    footer = f"-# {strings('credit.per_seat', seats=cost_per_seat(debate))}"
    headed = [(f"## {strings('front.conclusion_title')}", conclusion.decision)] + [
        (f"**{strings(f'front.conclusion_{key}')}**", "\n".join(f"• {p}" for p in points))
        for key, points in (("agreed", conclusion.agreed), ("open", conclusion.open_issues))
        if points
    ]
    heads = sum(len(head) + 1 for head, _ in headed)
    room = TEXT_TOTAL - sum(map(len, (*fixed, pages, footer))) - heads
    note: Note = lambda n: strings("front.cut_conclusion", omitted=n)  # noqa: E731  # a closure
    texts = fit([text for _, text in headed], room, note)
    first, *rest = [f"{head}\n{text}" for (head, _), text in zip(headed, texts, strict=True)]
    colour = embeds.AMBER if decided else embeds.GREY  # the people decided
    items = [_text(part) for part in (first, *fixed, *rest)]
    return _view(_box(colour, *items, *_closing(pages), _text(footer)))


def summary_layout(
    format_name: str, markdown: str, links: dict[str, str], strings: Strings, *, closing: bool
) -> Layout:
    """A format's closing block, grey, with its pages; titled as the Conclusion if `closing`;
    cut to fit, saying the whole is on the pages below."""
    title = f"## {strings('front.conclusion_title' if closing else 'front.summary_title')}"
    pages = _pages(format_name, links, strings)
    note: Note = lambda _: "\n\n" + strings("front.summary_cut")  # noqa: E731  # a closure
    body = shorten(markdown, TEXT_TOTAL - len(title) - 1 - len(pages), note)
    return _view(_box(embeds.GREY, _text(f"{title}\n{body}"), *_closing(pages)))


def _pages(format_name: str, links: dict[str, str], strings: Strings) -> str:
    """`**Pages**\\n[Agenda](url) · ...`, or "" when no page has an address."""
    named = [
        f"[{page_label(strings, format_name, page)}]({url})"
        for page, url in links.items()
        if url.startswith("http")
    ]
    if not named:
        return ""
    return shorten(f"**{strings('front.conclusion_pages')}**\n" + " · ".join(named), 1024)


def _closing(pages: str) -> list[Item]:
    """A line, then the pages (nothing when there are none)."""
    return [discord.ui.Separator(), _text(pages)] if pages else []
