"""The console's loop: typed chat goes to detection, keys answer the card, questions and Stop;
what a line means depends on where the current debate stands (`ConsoleApp.handle`)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal

from rich.console import Console
from rich.text import Text

from bot.admin import AdminReads, open_debates
from bot.console.admin_keys import AdminKeys
from bot.console.card_keys import budget_in, format_in, option_in
from bot.console.keyboard import HELP, QUIT, STOP, Keyboard
from bot.console.room.out import MODERATOR_GREY
from bot.console.seats import People
from bot.formatting import format_label, option_label, pause_area
from bot.stats import SeatReads
from handlers.core.controls import control_named
from handlers.core.events import (
    BudgetChosen,
    BudgetDecided,
    Event,
    FormatChosen,
    OptionChosen,
    ProposalApproved,
    ProposalDeclined,
    StopRequested,
    UserAnswered,
)
from handlers.core.feature import Control
from handlers.core.formats import card_options, formats_for
from handlers.core.i18n import Strings
from handlers.core.model import ChatLine, Debate, Phase, Proposal
from handlers.debate_handler import DebateHandler
from handlers.detection import DetectionHandler, heard
from handlers.ports import Clock

CONSOLE_CHANNEL = 1  # the terminal is one watched channel
YES = frozenset({"y", "yes", "예", "네", "ㅇ", "o", "open"})
NO = frozenset({"n", "no", "아니요", "아니오", "ㄴ", "later"})
# At a pause (the budget, or converging): the key and the people's word it gives.
_Word = Literal["extend", "conclude", "consensus", "resume"]
PAUSE_KEYS: dict[str, _Word] = {"e": "extend", "c": "conclude", "d": "consensus", "r": "resume"}
_SPEAKER = re.compile(r"^(\S{1,32}):\s+(\S.*)$")


class ConsoleApp:
    """Reads lines and turns them into detection, approvals, answers and stops."""

    def __init__(
        self,
        handler: DebateHandler,
        detection: DetectionHandler,
        store: AdminReads,
        keyboard: Keyboard,
        console: Console,
        strings: Strings,
        clock: Clock,
        people: People,
        *,
        shortcut: bool,
        db_path: str,
        records: SeatReads,
        page_url: Callable[[Debate, str], str] | None = None,
    ) -> None:
        self._handler = handler
        self._detection = detection
        self._store = store
        self._keyboard = keyboard
        self._console = console
        self._t = strings
        self._clock = clock
        self._people = people
        self._shortcut = shortcut
        self._db_path = db_path
        self._window: list[ChatLine] = []
        self._current: int | None = None
        self._message_id = 0
        self._quit = asyncio.Event()
        self._hinted = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._admin = AdminKeys(
            handler, store, strings, clock, Path(db_path).parent, records, page_url=page_url
        )
        keyboard.pace_with(self._waiting_for_input)

    async def run(self) -> int:
        """Resume what was running, then take lines until /quit, Ctrl-C or the end of input."""
        resumed = await self._handler.resume_all()
        self._current = max((d.id for d in await open_debates(self._store)), default=None)
        if resumed or self._current:
            self._say(self._t("console.resumed", id=self._current or resumed[-1]))
        reader = asyncio.ensure_future(self._keyboard.next_line())
        quitting = asyncio.ensure_future(self._quit.wait())
        try:
            while True:
                await asyncio.wait({reader, quitting}, return_when=asyncio.FIRST_COMPLETED)
                if quitting.done():
                    return 0
                line = reader.result()
                if line is None:
                    await self._settle()
                    break
                if not await self.handle(line):
                    break
                reader = asyncio.ensure_future(self._keyboard.next_line())
        finally:
            for task in (reader, quitting):
                task.cancel()
            await asyncio.gather(reader, quitting, *self._tasks, return_exceptions=True)
        return 0

    def interrupt(self) -> None:
        """Ctrl-C: the first stops a running debate; the next (or with none running) quits."""
        task = asyncio.get_running_loop().create_task(self._interrupt())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _interrupt(self) -> None:
        debate, stop = await self._live(), StopRequested(self._people.actor)
        if debate is not None and (await self._handler.submit(debate.id, stop)).taken:
            self._say(self._t("console.interrupted"))
            return
        self._bye()
        self._quit.set()

    async def handle(self, line: str) -> bool:
        """Act on one typed line; False to quit."""
        text = line.strip()
        if not text:
            return True
        if text.lower() in QUIT:
            self._bye()
            return False
        if text.lower() in HELP:
            self._say(self._t("console.help"))
            return True
        said = await self._admin.answer(text, self._people.actor)  # /list, /status N, /stop N
        if said is not None:
            self._say(said)
            return True
        debate = await self._live()
        if debate is None:
            await self._chat(text)
        elif debate.phase is Phase.PROPOSED:
            await self._card(debate, text)
        elif text.lower() in STOP:
            await self._submit(debate, StopRequested(self._people.actor))
        elif (control := control_named(text.lower().removeprefix("/"))) and text.startswith("/"):
            await self._control(debate, control)
        elif debate.phase is Phase.AWAITING_USER:
            await self._answer(debate, text)
        else:
            self._say(self._t("console.running_keys"))
        return True

    async def _control(self, debate: Debate, control: Control) -> None:
        """A control typed as `/<name>` (Discord's button): the first instance offered now."""
        offered = control.offered(debate)
        if not offered:
            self._say(self._t("console.control_not_now", control=control.name))
            return
        await self._submit(debate, control.build(self._people.actor, *offered[0]))

    async def _submit(self, debate: Debate, event: Event) -> Debate:
        """Hand the debate a typed key's event; the debate after it."""
        return (await self._handler.submit(debate.id, event)).debate or debate

    async def _live(self) -> Debate | None:
        if self._current is None:
            return None
        debate = await self._handler.get(self._current)
        return None if debate.phase.is_terminal else debate

    async def _card(self, debate: Debate, text: str) -> None:
        key = text.lower()
        if key in YES:
            await self._submit(debate, ProposalApproved(self._people.actor))
        elif key in NO:
            await self._submit(debate, ProposalDeclined(self._people.actor))
        elif (rounds := budget_in(text)) is not None:
            after = await self._submit(debate, BudgetChosen(self._people.actor, rounds))
            self._say(self._t("budget.console_chosen", rounds=after.setup.max_rounds))
        elif name := format_in(text, formats_for(debate.setup.roster)):
            after = await self._submit(debate, FormatChosen(self._people.actor, name))
            label = format_label(self._t, after.setup.format)
            self._say(self._t("console.format_chosen", format=label))
        elif chosen := option_in(text, card_options(debate.setup.format), debate.ids):
            after = await self._submit(debate, OptionChosen(self._people.actor, *chosen))
            answer = option_label(self._t, chosen[0], after.option(chosen[0]).replace(",", ", "))
            self._say(self._t("console.option_chosen", option=answer))
        else:
            self._say(self._t("console.card_waiting"))

    async def _answer(self, debate: Debate, text: str) -> None:
        if debate.people.paused:  # at the budget: e / c, anything else is said to the room
            decide = PAUSE_KEYS.get(text.lower())
            if decide is not None:
                await self._submit(debate, BudgetDecided(self._people.actor, decide))
            else:  # the engine keeps it for the moderator and the next debaters
                await self._submit(debate, UserAnswered(self._people.actor, text))
                self._say(self._t(f"{pause_area(debate)}.console_keys"))
            return
        options = debate.people.user_question.options if debate.people.user_question else ()
        answer = text
        if text.isdigit() and 1 <= int(text) <= len(options):
            answer = options[int(text) - 1]
        await self._submit(debate, UserAnswered(self._people.actor, answer))

    async def _chat(self, text: str) -> None:
        if text.startswith("/debate"):
            await self._debate_shortcut(text.removeprefix("/debate").strip())
            return
        if text.startswith("/"):
            self._say(self._t("console.unknown_command", command=text.split(maxsplit=1)[0]))
            return
        found = _SPEAKER.match(text)
        name, content = (found.group(1), found.group(2)) if found else (self._people.operator, text)
        self._message_id += 1
        line = ChatLine(
            self._people.id_of(name), name, content, self._clock.now(), self._message_id
        )
        self._window.append(line)
        proposal = await self._detection.on_message(CONSOLE_CHANNEL, line, author_is_bot=False)
        if proposal is not None:
            await self._propose(proposal)
        elif self._shortcut and not self._hinted:
            self._hinted = True
            self._say(self._t("console.shortcut_hint"))

    async def _debate_shortcut(self, topic: str) -> None:
        if not self._shortcut:
            self._say(self._t("console.shortcut_off"))
            return
        if not topic:
            self._say(self._t("console.shortcut_usage"))
            return
        operator = self._people.operator  # with no chat yet, the topic is what was said
        said = ChatLine(self._people.id_of(operator), operator, topic, self._clock.now())
        context, people, names = heard(self._window or [said])
        proposal = Proposal(
            channel_id=CONSOLE_CHANNEL,
            topic=topic,
            question=topic,
            reason=self._t("console.shortcut_reason"),
            confidence=1.0,
            context=context,
            people_ids=people,
            people_names=names,
        )
        await self._propose(proposal)

    async def _propose(self, proposal: Proposal) -> None:
        debate = await self._handler.propose(proposal)
        if debate is None:
            self._say(self._t("console.already_open", topic=proposal.topic))
            return
        self._current = debate.id
        self._window.clear()

    async def _waiting_for_input(self) -> None:
        """Return once the console waits for a line: from the debate, or for a seat's reply."""
        if self._current is not None and not self._keyboard.composing.is_set():
            await _first(self._handler.wait_idle(self._current), self._keyboard.composing.wait())

    async def _settle(self) -> None:
        """At the end of input: let the running debate reach a point where it waits or ends;
        if a human seat still wants a reply, nothing can type it: the debate is stopped."""
        if self._current is not None:
            await _first(self._handler.wait_idle(self._current), self._keyboard.starved.wait())
            debate = await self._live()
            if self._keyboard.starved.is_set() and debate is not None:
                self._say(self._t("console.input_ended"))
                await self._submit(debate, StopRequested(self._people.actor))
            with contextlib.suppress(asyncio.CancelledError):
                await self._handler.wait_idle(self._current)
        self._bye()

    def _bye(self) -> None:
        self._say(self._t("console.bye", db=self._db_path))

    def _say(self, text: str, colour: str = MODERATOR_GREY) -> None:
        self._console.print(Text(text, style=colour), soft_wrap=True)


async def _first(*waits: Awaitable[object]) -> None:
    """Until the first of `waits` is done; the others are cancelled."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
