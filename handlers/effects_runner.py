"""Run one stored effect through the ports; an effect that waits for an answer returns an event."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TypeVar

import prompts
from handlers.core import effects as fx
from handlers.core.ending.degraded import warned
from handlers.core.events import (
    ConclusionReady,
    DebaterFailed,
    Event,
    Judged,
    MinorityReported,
    PollClosed,
    ReplyReceived,
    TaskDone,
)
from handlers.core.formats import format_named
from handlers.core.i18n import strings_in
from handlers.core.model import (
    Backend,
    Conclusion,
    Debate,
    FailureKind,
    ModeratorSource,
    ModeratorView,
    ParsedReply,
    Turn,
    WikiPage,
)
from handlers.core.moderation.bounds import ANSWER_CHARS
from handlers.core.poll.minority import fallback, from_output, task_fields
from handlers.core.poll.schema import MinorityTaskReply
from handlers.core.poll.state import MINORITY_TASK
from handlers.core.record.chain import closing_page
from handlers.core.reply.parser import OFF_LOOP_CHARS, parse_reply
from handlers.core.turns.concessions import moved_toward, verdict
from handlers.core.turns.steps import format_of
from handlers.core.wiki.names import page_word
from handlers.ports import (
    NOTHING,
    Clock,
    Debater,
    DebaterError,
    DebaterOutput,
    Loaded,
    Moderator,
    ModeratorUnavailable,
    Room,
    TaskRequest,
    TurnRequest,
    Wiki,
)
from handlers.prompting import (
    compose_turn_prompt,
    participant_system_prompt,
    render_pieces,
    render_value,
)
from handlers.store_ports import Timers, TurnLog

log = logging.getLogger(__name__)
T = TypeVar("T")

PAGE_NAMES = frozenset(page.value for page in WikiPage)  # the engine's own pages
MODERATOR_CONTEXT_TURNS = 2  # the moderator sees the last two turns in full, never more


@dataclass
class EffectRunner:
    """Carries out effects through the ports it is built with; holds no state of its own."""

    _timers: Timers
    _log: TurnLog
    _moderator: Moderator
    _debaters: Mapping[Backend, Debater]
    _wiki: Wiki
    _room: Room
    _clock: Clock
    _language: str
    _archive_hours: int = 0  # a concluded room is archived this long after its end (0: never)

    async def run(self, debate: Debate, effect: fx.Effect) -> Event | None:
        """Carry out `effect` for `debate`; return the event it produced, if any."""
        match effect:
            case fx.AskDebater():
                return await self._ask(debate, effect)
            case fx.Judge(turn=turn):
                view = await self._view(debate)
                decision = await self._moderator.judge(view)
                return Judged(turn, decision, heard=len(debate.people.lines))
            case fx.RunTask(task=task) if task == MINORITY_TASK:  # a stalemate
                return await self._minority_report(debate)
            case fx.RunTask(task=task):
                return await self._task(debate, task)
            case fx.Conclude():
                return await self._conclude(debate)
            case fx.ClosePoll():  # ends the poll if it still runs, and reads its votes
                counts = await self._room.votes(debate)
                await self._timers.cancel_timer(debate.id, self._clock.now())
                return PollClosed(counts or (), lost=counts is None)
            case fx.OpenPoll():  # a repeat posts nothing again and keeps the first end time
                hours = debate.poll.hours if debate.poll is not None else 1
                await self._room.show(debate, effect)
                ends = self._clock.now() + timedelta(hours=hours)
                await self._timers.schedule_poll(debate.id, ends)
            case fx.ScheduleResume() | fx.CancelTimer() | fx.ArchiveRoom():
                await self._timer(debate, effect)
            case _ if isinstance(effect, fx.WikiEffect):
                await self._wiki.write(debate, effect, await self._for_wiki(debate, effect))
            case fx.PostTurn():
                await self._post_turn(debate, effect)
            case fx.PostConclusion() | fx.PostSummary():
                await self._show_end(debate, effect)
            case _:
                await self._room.show(debate, self._named(debate, effect))
        return None

    async def _post_turn(self, debate: Debate, effect: fx.PostTurn) -> None:
        """Post the stored turn; the link the room returns is kept for the Round-Log's section
        (a repeat after a crash posts nothing and returns the same link)."""
        posted = await self._log.turn(debate.id, effect.turn)
        link = await self._room.show(debate, effect, Loaded(turn=posted))
        if link:
            await self._log.record_link(debate.id, effect.turn, link)

    async def _timer(
        self, debate: Debate, effect: fx.ScheduleResume | fx.CancelTimer | fx.ArchiveRoom
    ) -> None:
        """The debate's one stored timer: set for a reset, cancelled at the end, and the
        archive it ends with (only when the time is the archive's: a timer set before the end
        that fires late archives nothing)."""
        match effect:
            case fx.ScheduleResume(at=at):
                await self._timers.schedule_resume(debate.id, datetime.fromisoformat(at))
            case fx.CancelTimer():
                await self._timers.cancel_timer(debate.id, self._clock.now())
            case fx.ArchiveRoom() if self._archive_hours and debate.ending.ended_at is not None:
                due = debate.ending.ended_at + timedelta(hours=self._archive_hours)
                if due <= self._clock.now():
                    await self._room.show(debate, effect)

    async def _conclude(self, debate: Debate) -> ConclusionReady:
        """The Conclusion: the moderator's, or the format's own closing when it has one."""
        fmt = format_named(debate.setup.format)
        if fmt.closes_itself(debate):  # its own closing pages: no moderator request
            summary = await asyncio.to_thread(fmt.summary, debate)  # reads every answer
            return ConclusionReady(Conclusion(summary, source=ModeratorSource.RULES))
        view = await self._view(debate, every_seat=True)
        return ConclusionReady(await self._moderator.conclude(view))

    async def _minority_report(self, debate: Debate) -> MinorityReported:
        """The moderator's report, its quotes checked; each side's stance line without one."""
        turns = await self._log.last_turns(debate.id, debate.stored_turns)
        prompt = prompts.load(
            MINORITY_TASK, debate.spoken_in(self._language), **task_fields(debate, turns)
        )
        request = TaskRequest(debate.id, MINORITY_TASK, prompt, True, schema=MinorityTaskReply)
        try:
            output = await self._moderator.perform(request)
        except ModeratorUnavailable:
            return MinorityReported(fallback(debate, turns))
        return MinorityReported(from_output(debate, turns, output))

    async def _for_wiki(self, debate: Debate, effect: fx.WikiEffect) -> Loaded:
        """What a wiki write needs from the store: a turn and its link, a rendered page."""
        match effect:
            case fx.AppendRoundLog(turn=number):
                logged = await self._log.turn(debate.id, number)
                url = await self._log.message_url(debate.id, number)
                return Loaded(turn=logged, message_url=url)
            case fx.WritePage(page=page):
                fmt = format_named(debate.setup.format)
                turns = await self._turns(debate, fmt.page_shows(debate, page))
                # A page reads whole answers (megabytes, if a debater wrote that): off the loop.
                title, markdown = await asyncio.to_thread(fmt.render_page, debate, page, turns)
                closing = page in (WikiPage.CONCLUSION.value, *fmt.pages(debate)[-1:])
                if closing and fmt.closes_itself(debate):  # it names what failed
                    markdown = warned(debate, markdown)
                if closing_page(debate, page):  # it ends with the chain head
                    every = await self._log.last_turns(debate.id, debate.stored_turns)
                    return Loaded(title=title, markdown=markdown, turns=every)
                return Loaded(title=title, markdown=markdown)
            case fx.WriteConclusion():  # it ends with the record's chain head
                return Loaded(turns=await self._log.last_turns(debate.id, debate.stored_turns))
        return NOTHING

    async def _task(self, debate: Debate, task: str) -> TaskDone:
        """A format's moderator task; its deterministic fallback when the moderator cannot."""
        fmt = format_named(debate.setup.format)
        shown = await self._turns(debate, fmt.task_shows(debate, task))
        language = debate.spoken_in(self._language)
        prompt = render_pieces(fmt.task_brief(debate, task, shown), language)
        schema = fmt.task_schemas.get(task)  # None: a text task
        request = TaskRequest(debate.id, task, prompt, schema is not None, language, schema)
        try:
            output = await self._moderator.perform(request)
        except ModeratorUnavailable:
            output = None
        if output is not None and len(output) <= ANSWER_CHARS:
            return TaskDone(task, output)
        if output is not None:
            size = f"{len(output):,}"
            log.warning("debate %s: task %s answered %s characters; rules", debate.id, task, size)
        fallback = render_value(fmt.task_fallback(debate, task, shown), language)
        return TaskDone(task, fallback, ModeratorSource.RULES)

    async def _turns(self, debate: Debate, numbers: tuple[int, ...]) -> tuple[Turn, ...]:
        """The stored turns by number (a number a skipped ask left unused is passed over)."""
        found = []
        for number in numbers:
            try:
                found.append(await self._log.turn(debate.id, number))
            except LookupError:
                continue
        return tuple(found)

    async def _show_end(self, debate: Debate, effect: fx.PostConclusion | fx.PostSummary) -> None:
        """The end in the room, with the links to its pages and every turn (for the export
        file); then the room's archive time, stored as the debate's timer (fenced as every
        write is, kept across restarts)."""
        fmt = format_named(debate.setup.format)
        posted = isinstance(effect, fx.PostSummary)
        summary = await asyncio.to_thread(fmt.summary, debate) if posted else ""
        every = await self._log.last_turns(debate.id, debate.stored_turns)
        links = page_links(self._wiki, debate)
        await self._room.show(debate, effect, Loaded(markdown=summary, links=links, turns=every))
        if self._archive_hours:
            archive_at = self._clock.now() + timedelta(hours=self._archive_hours)
            await self._timers.schedule_resume(debate.id, archive_at)

    async def _ask(self, debate: Debate, ask: fx.AskDebater) -> Event:
        if ask.delay_s > 0:
            await self._clock.sleep(ask.delay_s)
        member = debate.member(ask.seat)
        debater = self._debaters.get(member.backend)
        if ask.seat in debate.spend.benched:  # refused until the people act: not asked again
            return DebaterFailed(ask.seat, ask.turn, FailureKind.CREDITS, "stopped")
        if debater is None:
            detail = f"no {member.backend.value} debater is configured"
            return DebaterFailed(ask.seat, ask.turn, FailureKind.USAGE, detail)
        people = debate.people.lines[debate.heard_by(ask.seat) :]
        shown = await self._turns(debate, ask.shows)
        working = self._room.working(debate, ask.seat)
        language = debate.spoken_in(self._language)
        request = TurnRequest(
            debate_id=debate.id,
            turn=ask.turn,
            round=ask.round,
            prompt=compose_turn_prompt(debate, ask, shown, language, people),
            fresh_session=ask.fresh_session,
            participant=member.id,
            name=member.name,
            persona=member.persona,
            model=member.model,
            on_text=working.show_text,
            for_person=partial(
                compose_turn_prompt, debate, ask, shown, language, people, person=True
            ),
            system_prompt=participant_system_prompt(language),
            budget_usd=left_of_budget(debate),
            reply_schema=format_named(debate.setup.format).reply_schema(debate, ask),
        )
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(working)
            try:
                output = await debater.speak(request)
            except DebaterError as exc:
                cost = exc.cost_usd
                return DebaterFailed(
                    ask.seat, ask.turn, exc.kind, exc.detail, exc.retry_after, cost
                )
            ending = stack.pop_all()  # the working indicator now ends with what runs to the end
        # The answer is paid for: a step that ends the ask from here on (a Stop) no longer
        # loses it; the engine keeps it as a late answer (handlers.core.turns.steps.late_reply).
        return await run_to_the_end(self._received(debate, ask, output, ending))

    async def _received(
        self,
        debate: Debate,
        ask: fx.AskDebater,
        output: DebaterOutput,
        ending: contextlib.AsyncExitStack[bool | None],
    ) -> ReplyReceived:
        """A debater's answer as the engine takes it: the working indicator ended, the answer
        parsed (off the loop when long), its move toward the others checked."""
        await ending.aclose()
        parsed = await parsed_by_contract(debate, output)
        concession = await self._concession(debate, ask.seat, parsed)
        said = (ask.seat, ask.turn, output.text, output.raw, output.meta)
        return ReplyReceived(
            *said, heard=len(debate.people.lines), parsed=parsed, concession=concession
        )

    async def _concession(self, debate: Debate, seat: str, parsed: ParsedReply) -> str:
        """Checks a move toward the others against their stored replies."""
        if not moved_toward(debate.stance_of(seat), parsed.stance):
            return ""
        earlier = await self._log.last_turns(debate.id, debate.stored_turns)
        # Normalises the quote and every earlier reply: megabytes in a long debate.
        return await asyncio.to_thread(verdict, seat, parsed.convinced_by, earlier)

    async def _view(self, debate: Debate, *, every_seat: bool = False) -> ModeratorView:
        """The last two turns (by number, from the debate's log) and what the people said since
        the last judgement; for the Conclusion also each participant's latest turn, since one
        may speak twice in a row across rounds (each side's position is quoted from it)."""
        numbers = tuple(number for number, _ in debate.floor.log[-MODERATOR_CONTEXT_TURNS:])
        turns = await self._turns(debate, numbers)
        if every_seat and {turn.seat for turn in turns} != set(debate.ids):
            every = await self._log.last_turns(debate.id, max(debate.stored_turns, len(turns)))
            latest = {turn.seat: turn for turn in every}  # oldest first: the last one stays
            kept = {turn.number: turn for turn in (*latest.values(), *turns)}
            turns = tuple(kept[number] for number in sorted(kept))
        people = debate.people.lines[debate.moderation.heard :]
        return ModeratorView(debate=debate, last_turns=turns, people=people)

    def _named(self, debate: Debate, effect: fx.RoomEffect) -> fx.RoomEffect:
        """A notice with its `page` resolved into its name and link, its `seat` into the
        debater's name."""
        if not isinstance(effect, fx.Notify):
            return effect
        params = dict(effect.params)
        if "page" in params:
            page = params["page"]
            words = strings_in(debate.spoken_in(self._language))
            params["page"] = page_word(words, debate.setup.format, page) or page
            own = page in format_named(debate.setup.format).pages(debate)
            params["url"] = self._wiki.page_url(debate, page) if page in PAGE_NAMES or own else ""
        if "seat" in params:
            params["seat"] = debate.name_of(params["seat"])
        return fx.Notify(effect.key, tuple(params.items()))


def page_links(wiki: Wiki, debate: Debate) -> dict[str, str]:
    """Where each page the debate wrote is read, in the format's order (no dead links)."""
    return {
        page: wiki.page_url(debate, page)
        for page in format_named(debate.setup.format).pages(debate)
    }


async def run_to_the_end(work: Awaitable[T]) -> T:
    """`work`'s result, even if the task awaiting it is cancelled meanwhile (the cancel is
    taken back: what `work` finishes was already paid for). It is short: a parse, a read."""
    done = asyncio.ensure_future(work)
    while True:
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            if done.cancelled():
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()


async def parse_off_loop(
    text: str, parse: Callable[[str], ParsedReply] | None = None
) -> ParsedReply:
    """Parse a reply (by the JSON contract unless `parse` is given), off the loop when long."""
    parse = parse or parse_reply
    if len(text) < OFF_LOOP_CHARS:
        return parse(text)
    return await asyncio.to_thread(parse, text)


async def parsed_by_contract(debate: Debate, output: DebaterOutput) -> ParsedReply:
    """The reply split by the debate's format's contract; an adapter's own parse is used only
    when that contract is the JSON one it parsed by."""
    parse = format_of(debate).parse
    if output.parsed is not None and parse is parse_reply:
        return output.parsed
    return await parse_off_loop(output.text, parse)


def left_of_budget(debate: Debate) -> float | None:
    """What a turn may still spend of the people's dollar budget (None: no dollar budget).
    Spent already (a round runs to its end before the budget's pause): nothing, so a capped
    backend stops at once and the people decide."""
    if debate.spend.budget_usd <= 0:
        return None
    return max(0.0, debate.spend.budget_usd - debate.spend.cost_usd)
