"""Run one stored effect through the ports; an effect that waits for an answer returns an event."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from handlers.core.concessions import moved_toward, verdict
from handlers.core.effects import (
    AppendRoundLog,
    AskBudget,
    AskDebater,
    AskUser,
    CloseCard,
    ClosePoll,
    Conclude,
    Effect,
    Judge,
    LogNote,
    Notify,
    OpenPoll,
    OpenRoom,
    PostCard,
    PostConclusion,
    PostMinorityReport,
    PostSummary,
    PostTurn,
    RunTask,
    UpdateClaims,
    UpdateStatus,
    WriteAgenda,
    WriteConclusion,
    WritePage,
    WriteWorkingDocument,
)
from handlers.core.events import (
    ConclusionReady,
    DebaterFailed,
    Event,
    Judged,
    ReplyReceived,
    TaskDone,
)
from handlers.core.formats import CONTRACTS, format_named
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
from handlers.core.poll_data import MINORITY_TASK
from handlers.core.reply_parser import OFF_LOOP_CHARS, parse_reply
from handlers.core.steps import format_of
from handlers.poll_runner import minority_report, poll_effect
from handlers.ports import (
    Clock,
    Debater,
    DebaterError,
    DebaterOutput,
    Moderator,
    ModeratorUnavailable,
    Room,
    TaskRequest,
    TurnRequest,
    Wiki,
)
from handlers.prompting import compose_turn_prompt, render_pieces
from handlers.store_ports import Store

PAGE_NAMES = {page.value: page.value.title() for page in WikiPage}  # "Working-Document"
MODERATOR_CONTEXT_TURNS = 2  # the moderator sees the last two turns in full, never more


class EffectRunner:
    """Carries out effects; holds no state of its own."""

    def __init__(
        self,
        store: Store,
        moderator: Moderator,
        debaters: Mapping[Backend, Debater],
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
                view = await self._view(debate)
                decision = await self._moderator.judge(view)
                return Judged(turn, decision, heard=len(debate.people))
            case RunTask(task=task) if task == MINORITY_TASK:  # a stalemate (issue 18)
                return await minority_report(self._store, self._moderator, debate, self._language)
            case RunTask(task=task):
                return await self._task(debate, task)
            case PostMinorityReport() | OpenPoll() | ClosePoll():
                return await poll_effect(self._room, self._store, self._clock, debate, effect)
            case Conclude():
                fmt = format_named(debate.format)
                if fmt.closes_itself(debate):  # its own closing pages: no moderator request
                    return ConclusionReady(
                        Conclusion(fmt.summary(debate), source=ModeratorSource.RULES)
                    )
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

    async def _refresh(self, debate: Debate, effect: UpdateStatus | UpdateClaims) -> None:
        """A pinned message edited to the state: the status line, or the claim ledger."""
        if isinstance(effect, UpdateStatus):
            await self._room.update_status(debate)
        else:
            await self._room.update_claims(debate)

    async def _ask_people(self, debate: Debate, effect: AskUser | AskBudget) -> None:
        """The moderator's question, or a pause's buttons (the budget, converging)."""
        if isinstance(effect, AskUser):
            await self._room.ask_user(debate, effect.question)
        else:
            await self._room.ask_budget(debate)

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
            case LogNote(key=key, what=what, who=who, text=text):
                await self._wiki.append_round_note(debate, key, what, who, text)
            case UpdateStatus() | UpdateClaims():
                await self._refresh(debate, effect)
            case WriteWorkingDocument(turn=number):
                await self._wiki.write_working_document(debate, number)
            case AskUser() | AskBudget():
                await self._ask_people(debate, effect)
            case WriteConclusion(conclusion=conclusion):
                await self._wiki.write_conclusion(debate, conclusion)
            case PostConclusion(conclusion=conclusion):
                await self._room.post_conclusion(debate, conclusion)
            case WritePage(page=page):
                fmt = format_named(debate.format)
                turns = await self._turns(debate, fmt.page_shows(debate, page))
                title, markdown = fmt.render_page(debate, page, turns)
                await self._wiki.write_page(debate, page, title, markdown)
            case PostSummary():
                await self._room.post_summary(debate, format_named(debate.format).summary(debate))

    async def _task(self, debate: Debate, task: str) -> TaskDone:
        """A format's moderator task; its deterministic fallback when the moderator cannot."""
        fmt = format_named(debate.format)
        shown = await self._turns(debate, fmt.task_shows(debate, task))
        prompt = render_pieces(fmt.task_brief(debate, task, shown), self._language)
        request = TaskRequest(debate.id, task, prompt, fmt.task_json(debate, task))
        try:
            return TaskDone(task, await self._moderator.perform(request))
        except ModeratorUnavailable:
            return TaskDone(task, fmt.task_fallback(debate, task, shown), ModeratorSource.RULES)

    async def _turns(self, debate: Debate, numbers: tuple[int, ...]) -> tuple[Turn, ...]:
        """The stored turns by number (a number a skipped ask left unused is passed over)."""
        found = []
        for number in numbers:
            try:
                found.append(await self._store.turn(debate.id, number))
            except LookupError:
                continue
        return tuple(found)

    async def _ask(self, debate: Debate, ask: AskDebater) -> Event:
        if ask.delay_s > 0:
            await self._clock.sleep(ask.delay_s)
        member = debate.member(ask.seat)
        debater = self._debaters.get(member.backend)
        if debater is None:
            detail = f"no {member.backend.value} debater is configured"
            return DebaterFailed(ask.seat, ask.turn, FailureKind.USAGE, detail)
        people = debate.people[debate.heard_by(ask.seat) :]
        shown = await self._shown(debate, ask)
        working = self._room.working(debate, ask.seat)
        request = TurnRequest(
            debate_id=debate.id,
            turn=ask.turn,
            round=ask.round,
            prompt=compose_turn_prompt(debate, ask, shown, self._language, people),
            fresh_session=ask.fresh_session,
            participant=member.id,
            name=member.name,
            persona=member.persona,
            model=member.model,
            on_text=working.show_text,
        )
        try:
            async with working:
                output = await debater.speak(request)
        except DebaterError as exc:
            return DebaterFailed(ask.seat, ask.turn, exc.kind, exc.detail, exc.retry_after)
        parsed = await parsed_by_contract(debate, output)
        heard = len(debate.people)
        concession = await self._concession(debate, ask.seat, parsed)
        return ReplyReceived(
            ask.seat,
            ask.turn,
            output.text,
            output.raw,
            output.meta,
            heard=heard,
            parsed=parsed,
            concession=concession,
        )

    async def _concession(self, debate: Debate, seat: str, parsed: ParsedReply) -> str:
        """Checks a move toward the others against their stored replies (issue 18)."""
        if not moved_toward(debate.stance_of(seat), parsed.stance):
            return ""
        earlier = await self._store.last_turns(debate.id, max(debate.turns, 1))
        return verdict(debate, seat, parsed.stance, parsed.convinced_by, earlier)

    async def _shown(self, debate: Debate, ask: AskDebater) -> tuple[Turn, ...]:
        """The stored turns the format lets this brief carry (an ask stored before formats
        existed relays its one turn)."""
        numbers = ask.shows if ask.step else ((ask.relay_turn,) if ask.relay_turn else ())
        return await self._turns(debate, numbers)

    async def _view(self, debate: Debate, *, every_seat: bool = False) -> ModeratorView:
        """The last two turns and what the people said since the last judgement; for the
        Conclusion also each participant's latest turn, since one may speak twice in a row
        across rounds (each side's position is quoted from it)."""
        # The debate's log names its stored turns in order: the latest two are read by
        # number, which the store keeps (no query per judgement).
        numbers = tuple(number for number, _ in debate.log[-MODERATOR_CONTEXT_TURNS:])
        turns = await self._turns(debate, numbers)
        if every_seat and {turn.seat for turn in turns} != set(debate.ids):
            every = await self._store.last_turns(debate.id, max(debate.turns, len(turns)))
            latest = {turn.seat: turn for turn in every}  # oldest first: the last one stays
            kept = {turn.number: turn for turn in (*latest.values(), *turns)}
            turns = tuple(kept[number] for number in sorted(kept))
        people = debate.people[debate.moderator_heard :]
        return ModeratorView(debate=debate, last_turns=turns, people=people)

    def _params(self, debate: Debate, params: dict[str, str]) -> dict[str, str]:
        """Resolve a `page` into its name and link, and a `seat` into the debater's name."""
        if "page" in params:
            page = params["page"]
            params["page"] = PAGE_NAMES.get(page, page)
            own = page in format_named(debate.format).pages(debate)
            params["url"] = self._wiki.page_url(debate, page) if page in PAGE_NAMES or own else ""
        if "seat" in params:
            params["seat"] = debate.name_of(params["seat"])
        return params


async def parse_off_loop(
    text: str, parse: Callable[[str], ParsedReply] | None = None
) -> ParsedReply:
    """Parse a reply (by the JSON contract unless `parse` is given), in a worker thread when
    it is long enough to hold the loop up."""
    parse = parse or parse_reply
    if len(text) < OFF_LOOP_CHARS:
        return parse(text)
    return await asyncio.to_thread(parse, text)


async def parsed_by_contract(debate: Debate, output: DebaterOutput) -> ParsedReply:
    """The reply split by the debate's format's contract; an adapter's own parse is used only
    when that contract is the JSON one it parsed by."""
    contract = format_of(debate).contract_of(debate)
    if output.parsed is not None and contract == "json":
        return output.parsed
    return await parse_off_loop(output.text, CONTRACTS[contract])
