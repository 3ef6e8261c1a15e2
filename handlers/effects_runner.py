"""Run one stored effect through the ports; an effect that waits for an answer returns an event."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from handlers.events import (
    AppendRoundLog,
    AskDebater,
    AskUser,
    CloseCard,
    Conclude,
    ConclusionReady,
    DebaterFailed,
    Effect,
    Event,
    Judge,
    Judged,
    Notify,
    OpenRoom,
    PostCard,
    PostConclusion,
    PostTurn,
    ReplyReceived,
    UpdateStatus,
    WriteAgenda,
    WriteConclusion,
    WriteWorkingDocument,
)
from handlers.model import SEAT_NAMES, Debate, ModeratorView, ParsedReply, Seat, WikiPage
from handlers.ports import Clock, Debater, DebaterError, Moderator, Room, Store, TurnRequest, Wiki
from handlers.prompting import compose_turn_prompt
from handlers.reply_parser import OFF_LOOP_CHARS, parse_reply

PAGE_NAMES = {page.value: page.value.title() for page in WikiPage}  # "Working-Document"
MODERATOR_CONTEXT_TURNS = 2  # the moderator sees the last two turns in full, never more


class EffectRunner:
    """Carries out effects; holds no state of its own."""

    def __init__(
        self,
        store: Store,
        moderator: Moderator,
        debaters: Mapping[Seat, Debater],
        wiki: Wiki,
        room: Room,
        clock: Clock,
        language: str,
    ) -> None:
        self._store = store
        self._moderator = moderator
        self._debaters = debaters
        self._wiki = wiki
        self._room = room
        self._clock = clock
        self._language = language

    async def run(self, debate: Debate, effect: Effect) -> Event | None:
        """Carry out `effect` for `debate`; return the event it produced, if any."""
        match effect:
            case AskDebater():
                return await self._ask(debate, effect)
            case Judge(turn=turn):
                decision = await self._moderator.judge(await self._view(debate))
                return Judged(turn, decision)
            case Conclude():
                view = await self._view(debate, every_seat=True)
                return ConclusionReady(await self._moderator.conclude(view))
            case PostTurn(turn=number):
                posted = await self._store.turn(debate.id, number)
                url = await self._room.post_turn(debate, posted)
                await self._store.set_message_url(debate.id, number, url)
            case AppendRoundLog(turn=number):
                logged = await self._store.turn(debate.id, number)
                url = await self._store.message_url(debate.id, number)
                await self._wiki.append_round_log(debate, logged, url)
            case Notify(key=key, params=params):
                await self._room.notify(debate, key, self._params(debate, dict(params)))
            case _:
                await self._simple(debate, effect)
        return None

    async def _simple(self, debate: Debate, effect: Effect) -> None:
        match effect:
            case PostCard():
                await self._room.post_card(debate)
            case CloseCard():
                await self._room.close_card(debate)
            case OpenRoom():
                await self._room.open(debate)
            case WriteAgenda():
                await self._wiki.write_agenda(debate)
            case UpdateStatus():
                await self._room.update_status(debate)
            case WriteWorkingDocument(turn=number):
                await self._wiki.write_working_document(debate, number)
            case AskUser(question=question):
                await self._room.ask_user(debate, question)
            case WriteConclusion(conclusion=conclusion):
                await self._wiki.write_conclusion(debate, conclusion)
            case PostConclusion(conclusion=conclusion):
                await self._room.post_conclusion(debate, conclusion)

    async def _ask(self, debate: Debate, ask: AskDebater) -> Event:
        if ask.delay_s > 0:
            await self._clock.sleep(ask.delay_s)
        relayed = await self._store.turn(debate.id, ask.relay_turn) if ask.relay_turn else None
        request = TurnRequest(
            debate_id=debate.id,
            turn=ask.turn,
            round=ask.round,
            prompt=compose_turn_prompt(debate, ask, relayed, self._language),
            fresh_session=ask.fresh_session,
        )
        try:
            async with self._room.working(debate, ask.seat):
                output = await self._debaters[ask.seat].speak(request)
        except DebaterError as exc:
            return DebaterFailed(ask.seat, ask.turn, exc.kind, exc.detail, exc.retry_after)
        parsed = output.parsed or await parse_off_loop(output.text)
        return ReplyReceived(ask.seat, ask.turn, output.text, output.raw, output.meta, parsed)

    async def _view(self, debate: Debate, *, every_seat: bool = False) -> ModeratorView:
        """The last two turns; for the Conclusion also each seat's latest turn, since a seat
        may speak twice in a row across rounds (each side's position is quoted from it)."""
        turns = await self._store.last_turns(debate.id, MODERATOR_CONTEXT_TURNS)
        if every_seat and {turn.seat for turn in turns} != set(Seat):
            every = await self._store.last_turns(debate.id, max(debate.turns, len(turns)))
            latest = {turn.seat: turn for turn in every}  # oldest first: the last one stays
            kept = {turn.number: turn for turn in (*latest.values(), *turns)}
            turns = tuple(kept[number] for number in sorted(kept))
        return ModeratorView(debate=debate, last_turns=turns)

    def _params(self, debate: Debate, params: dict[str, str]) -> dict[str, str]:
        """Resolve a `page` into its name and link, and a `seat` into the debater's name."""
        if "page" in params:
            page = params["page"]
            params["page"] = PAGE_NAMES.get(page, page)
            params["url"] = self._wiki.page_url(debate, page) if page in PAGE_NAMES else ""
        if "seat" in params:
            params["seat"] = SEAT_NAMES[Seat(params["seat"])]
        return params


async def parse_off_loop(text: str) -> ParsedReply:
    """Parse a reply, in a worker thread when it is long enough to hold the loop up."""
    if len(text) < OFF_LOOP_CHARS:
        return parse_reply(text)
    return await asyncio.to_thread(parse_reply, text)
