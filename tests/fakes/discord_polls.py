"""The fake Discord's polls, shaped as discord.py 2.7 reads them (discord/types/poll.py).

A message created with a `poll` body (`allow_multiselect`, `question.text`, `duration` in whole
hours 1..768, `layout_type`, `answers[].poll_media.text`; at most 10 answers of at most 55
characters, a question of at most 300) is stored with its poll: `expiry`, `answers` with
`answer_id` 1.., and `results` (`is_finalized`, `answer_counts` with `id`, `count`,
`me_voted`). A test casts votes with `fake.vote(message_id, user, answer_id)` (one vote per
person unless multiselect; no gateway vote events are sent: the bot reads the poll by GET).
`POST /channels/{c}/polls/{m}/expire` (the author only) ends it early; a poll whose expiry has
passed is finalized when next read. Finalizing posts Discord's poll-result message (type 46,
a `poll_result` embed replying to the poll), once.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakes.discord_limits import DiscordError
from tests.fakes.discord_world import Json

if TYPE_CHECKING:
    from tests.fakes.fake_discord import FakeDiscord

V = "/api/v10"
MAX_ANSWERS = 10
ANSWER_LIMIT = 55
QUESTION_LIMIT = 300
MAX_HOURS = 768  # 32 days
MESSAGE_TYPE_POLL_RESULT = 46
POLL_EXPIRED = 520001  # Discord's "This poll has already ended"


def _invalid(field: str, message: str) -> DiscordError:
    errors = {"poll": {field: {"_errors": [{"code": "BASE_TYPE_BAD", "message": message}]}}}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def poll_payload(body: Json, created: dt.datetime) -> Json:
    """The stored poll of a create body, as Discord returns it; 50035 for what Discord refuses."""
    question = ((body.get("question") or {}).get("text")) or ""
    if not 0 < len(question) <= QUESTION_LIMIT:
        raise _invalid("question", f"Must be between 1 and {QUESTION_LIMIT} in length.")
    answers = body.get("answers") or []
    if not 1 <= len(answers) <= MAX_ANSWERS:
        raise _invalid("answers", f"Must be between 1 and {MAX_ANSWERS} in length.")
    for answer in answers:
        text = (answer.get("poll_media") or {}).get("text") or ""
        if not 0 < len(text) <= ANSWER_LIMIT:
            raise _invalid("answers", f"Must be between 1 and {ANSWER_LIMIT} in length.")
    hours = float(body.get("duration", 24))
    if hours != int(hours) or not 1 <= hours <= MAX_HOURS:
        raise _invalid("duration", f"Must be a whole number of hours from 1 to {MAX_HOURS}.")
    return {
        "question": {"text": question},
        "answers": [
            {"answer_id": index, "poll_media": dict(answer["poll_media"])}
            for index, answer in enumerate(answers, start=1)
        ],
        "expiry": (created + dt.timedelta(hours=hours)).isoformat(),
        "allow_multiselect": bool(body.get("allow_multiselect")),
        "layout_type": int(body.get("layout_type") or 1),
        "results": {"is_finalized": False, "answer_counts": []},
    }


class Polls:
    """The votes of every poll, and what finalizing one does; owned by the FakeDiscord."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self.votes: dict[str, dict[str, set[int]]] = {}  # message id -> user id -> answers
        self.results_posted: dict[str, str] = {}  # poll message id -> its result message id

    def poll_of(self, message_id: str) -> Json:
        """A stored poll message's poll, or 10008."""
        message = self._fake.world.messages.get(message_id)
        if message is None or "poll" not in message:
            raise DiscordError(404, 10008, "Unknown Message")
        return message["poll"]  # type: ignore[no-any-return]  # the fake's JSON is untyped

    async def vote(self, message_id: str, user: Json, answer_id: int) -> None:
        """`user` votes for an answer (replacing an earlier vote unless multiselect)."""
        await self.refresh(message_id)
        poll = self.poll_of(message_id)
        if poll["results"]["is_finalized"]:
            raise DiscordError(400, POLL_EXPIRED, "This poll has already ended")
        if answer_id not in {a["answer_id"] for a in poll["answers"]}:
            raise DiscordError(400, 50035, "Unknown answer")
        mine = self.votes.setdefault(message_id, {}).setdefault(user["id"], set())
        if not poll["allow_multiselect"]:
            mine.clear()
        mine.add(answer_id)
        self._count(message_id, poll)

    def _count(self, message_id: str, poll: Json) -> None:
        voters = self.votes.get(message_id, {})
        poll["results"]["answer_counts"] = [
            {
                "id": answer["answer_id"],
                "count": sum(answer["answer_id"] in chosen for chosen in voters.values()),
                "me_voted": False,  # the bot never votes
            }
            for answer in poll["answers"]
        ]

    async def refresh(self, message_id: str) -> None:
        """A poll whose expiry has passed is finalized (as Discord does on its own)."""
        message = self._fake.world.messages.get(message_id)
        if message is None or "poll" not in message:
            return
        poll = message["poll"]
        expiry = dt.datetime.fromisoformat(poll["expiry"])
        if not poll["results"]["is_finalized"] and dt.datetime.now(dt.UTC) >= expiry:
            await self.finalize(message)

    async def finalize(self, message: Json) -> None:
        """Close the poll, then post Discord's result message once (MESSAGE_UPDATE first)."""
        poll = message["poll"]
        self._count(message["id"], poll)
        poll["results"]["is_finalized"] = True
        await self._fake.dispatch("MESSAGE_UPDATE", message)
        if message["id"] not in self.results_posted:
            result = self._result_message(message)
            self.results_posted[message["id"]] = result["id"]
            await self._fake.store_and_echo(result)

    def _result_message(self, message: Json) -> Json:
        poll = message["poll"]
        counts = {c["id"]: c["count"] for c in poll["results"]["answer_counts"]}
        top = max(counts.values(), default=0)
        leaders = [answer_id for answer_id, n in counts.items() if n == top and top > 0]
        fields = [
            {"name": "poll_question_text", "value": poll["question"]["text"]},
            {"name": "total_votes", "value": str(sum(counts.values()))},
            {"name": "victor_answer_votes", "value": str(top)},
        ]
        if len(leaders) == 1:
            text = next(a for a in poll["answers"] if a["answer_id"] == leaders[0])
            fields += [
                {"name": "victor_answer_id", "value": str(leaders[0])},
                {"name": "victor_answer_text", "value": text["poll_media"]["text"]},
            ]
        reference = {
            "message_id": message["id"],
            "channel_id": message["channel_id"],
            "guild_id": message.get("guild_id"),
            "type": 0,
        }
        return self._fake.world.message_payload(
            message["channel_id"],
            message["author"],
            {"embeds": [{"type": "poll_result", "fields": fields}]},
            message_reference=reference,
            mtype=MESSAGE_TYPE_POLL_RESULT,
        )


def add_poll_routes(router: web.UrlDispatcher, fake: FakeDiscord) -> None:
    """POST /channels/{c}/polls/{m}/expire: the poll's author ends it now."""

    async def expire(request: web.Request) -> Any:
        message = fake.message(request.match_info["channel_id"], request.match_info["message_id"])
        if "poll" not in message:
            raise DiscordError(400, 50035, "This message has no poll")
        if message["author"]["id"] != request[_actor_key()]["id"]:
            raise DiscordError(403, 50013, "Missing Permissions")
        if message["poll"]["results"]["is_finalized"]:
            raise DiscordError(400, POLL_EXPIRED, "This poll has already ended")
        await fake.polls.finalize(message)
        return message

    router.add_route("POST", V + "/channels/{channel_id}/polls/{message_id}/expire", expire)


def _actor_key() -> web.RequestKey[Json]:
    from tests.fakes.discord_rest import ACTOR  # noqa: PLC0415  # the rest module imports this one

    return ACTOR
