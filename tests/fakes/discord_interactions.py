"""The fake Discord's interactions: a user's click, the bot's callback, follow-ups.

A click carries what discord.py needs (`id, type, token, version, application_id,
attachment_size_limit`, the full `message` with components, `data.custom_id`,
`data.component_type`, `channel`, `member`). The callback must come within the deadline
(else 10062) and only once (else 40060); the first follow-up after a "thinking" defer edits
the original response.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakes.discord_limits import DiscordError, validate_message, walk
from tests.fakes.discord_modals import MODAL_SUBMIT, submit_data, validate_modal
from tests.fakes.discord_world import ALL_PERMISSIONS, Json, World

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL = 4, 5, 6, 7, 9
JSON_BODY: web.RequestKey[Any] = web.RequestKey("json_body", object)
FILES: web.RequestKey[list[tuple[str, bytes]]] = web.RequestKey("files", list)  # (name, data)


@dataclass
class InteractionRecord:
    """One click and what the bot answered."""

    id: str
    token: str
    payload: Json
    created: float
    ack: asyncio.Future[int]
    acked: float | None = None
    callback_type: int | None = None
    response_message_id: str | None = None
    followups: list[str] = field(default_factory=list)
    modal: Json | None = None  # the form the bot opened in answer (callback type 9)
    trigger: InteractionRecord | None = None  # a modal submit's: the click that opened it


class Interactions:
    """Mixed into FakeDiscord, which supplies the world, dispatch and message storage."""

    world: World
    interaction_deadline: float
    application_id: str

    if TYPE_CHECKING:  # supplied by FakeDiscord and its other parts

        async def dispatch(
            self, event: str, data: Json, *, only_user: Json | None = None
        ) -> None: ...

        async def store_and_echo(self, message: Json) -> None: ...

        async def apply_edit(self, message: Json, body: Json) -> None: ...

        async def message_stored(self) -> None: ...

    def _init_interactions(self) -> None:
        self.interactions: dict[str, InteractionRecord] = {}

    async def click(
        self,
        message_id: str,
        custom_id: str,
        user: Json,
        values: list[str] | None = None,
        *,
        shown: Json | None = None,
    ) -> InteractionRecord:
        """`user` (anyone) presses a button, or picks `values` in a select menu; the message
        author (a bot) gets the interaction. `shown`: the message as the user's client still
        shows it (a copy from before an edit it has not seen yet), as Discord then sends it."""
        message = shown or self.world.messages[message_id]
        button = next(
            (item for item in walk(message["components"]) if item.get("custom_id") == custom_id),
            None,
        )
        if button is None:
            raise AssertionError(f"message {message_id} has no component {custom_id!r}")
        if button.get("disabled"):
            raise AssertionError(f"button {custom_id!r} is disabled; nobody can press it")
        data = _component_data(button, values)
        return await self.interact(3, data, user, message["channel_id"], message)

    async def submit_modal(
        self, record: InteractionRecord, user: Json, values: dict[str, str]
    ) -> InteractionRecord:
        """`user` fills in and submits the modal the bot opened in answer to `record`."""
        if record.modal is None:
            raise AssertionError("the bot answered that interaction without a modal")
        data = submit_data(record.modal, values)
        message = record.payload["message"]
        return await self.interact(
            MODAL_SUBMIT, data, user, record.payload["channel_id"], message, trigger=record
        )

    async def interact(
        self,
        kind: int,
        data: Json,
        user: Json,
        channel_id: str,
        message: Json | None,
        *,
        trigger: InteractionRecord | None = None,
        permissions: str = ALL_PERMISSIONS,
    ) -> InteractionRecord:
        """Send the bot (the message's author, else the application) an interaction of `kind`
        by `user` holding `permissions` in the channel: a slash command (2), a component click
        (3) or a modal submitted (5)."""
        channel = self.world.channels[channel_id]
        guild_id = channel.get("guild_id") or self.world.guild_id  # the server it is run in
        member = dict(self.world.members[user["id"]], permissions=permissions)
        application_id = message["author"]["id"] if message else self.application_id
        interaction_id, token = self.world.ids.next(), "itok-" + self.world.ids.next()
        payload = {
            "id": interaction_id,
            "application_id": application_id,
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "guild_id": guild_id,
            "channel_id": channel["id"],
            "channel": channel,
            "member": member,
            "message": message,
            "app_permissions": ALL_PERMISSIONS,
            "locale": "ko",
            "guild_locale": "ko",
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild_id},
            "context": 0,
            "attachment_size_limit": 26214400,
        }
        record = InteractionRecord(
            interaction_id,
            token,
            payload,
            time.perf_counter(),
            asyncio.get_running_loop().create_future(),
            trigger=trigger,
        )
        self.interactions[interaction_id] = record
        if message is None:  # a slash command comes from no message
            del payload["message"]
        author = self.world.users[application_id]
        await self.dispatch("INTERACTION_CREATE", payload, only_user=author)
        return record

    async def wait_ack(self, record: InteractionRecord, timeout: float | None = None) -> int:
        """The callback type the bot answered with; fails like Discord after the deadline."""
        return await asyncio.wait_for(
            asyncio.shield(record.ack), timeout or self.interaction_deadline
        )

    def _interaction(self, interaction_id: str, token: str) -> InteractionRecord:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        return record

    def _by_token(self, application_id: str, token: str) -> InteractionRecord:
        for record in self.interactions.values():
            if record.token == token and record.payload["application_id"] == application_id:
                return record
        raise DiscordError(404, 10015, "Unknown Webhook")

    async def h_interaction_callback(self, request: web.Request) -> Json:
        """POST /interactions/{id}/{token}/callback (discord.py asks with_response=1)."""
        record = self._interaction(
            request.match_info["interaction_id"], request.match_info["token"]
        )
        if record.acked is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if time.perf_counter() - record.created > self.interaction_deadline:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = request[JSON_BODY] or {}
        kind, data = body.get("type"), body.get("data") or {}
        resource: Json | None = None  # Discord's answer names one only for types 4 and 7
        source = record.payload.get("message")
        if kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
            message = await self._respond(record, kind, data, request[FILES])
            if kind == CB_MESSAGE:
                resource = {"type": kind, "message": message}
        elif kind in (CB_DEFERRED_UPDATE, CB_UPDATE):
            if source is None:
                raise DiscordError(400, 50035, "UPDATE_MESSAGE needs a component interaction")
            record.response_message_id = source["id"]
            if kind == CB_UPDATE:
                target = self.world.messages.get(source["id"], source)
                await self.apply_edit(target, data)
                resource = {"type": kind, "message": target}
        elif kind == CB_MODAL:
            if record.payload["type"] == MODAL_SUBMIT:
                raise DiscordError(400, 50035, "A modal cannot answer a modal submit")
            record.modal = validate_modal(data)
        else:
            raise DiscordError(400, 50035, f"Invalid interaction callback type {kind!r}")
        record.acked, record.callback_type = time.perf_counter(), kind
        if not record.ack.done():
            record.ack.set_result(int(kind))
        flags = int(data.get("flags") or 0)
        interaction: Json = {"id": record.id, "type": record.payload["type"]}
        if record.response_message_id is not None:
            interaction.update(
                response_message_id=record.response_message_id,
                response_message_loading=kind == CB_DEFERRED_MESSAGE,
                response_message_ephemeral=bool(flags & FLAG_EPHEMERAL),
            )
        answer: Json = {"interaction": interaction}
        if resource is not None:
            answer["resource"] = resource
        return answer

    async def _respond(
        self, record: InteractionRecord, kind: int, data: Json, files: list[tuple[str, bytes]]
    ) -> Json:
        """The response message of CHANNEL_MESSAGE (4) or a deferred 'thinking' (5), with
        the files it carries stored as attachments."""
        if kind == CB_MESSAGE:
            validate_message(data, has_files=bool(files))
        channel_id = record.payload["channel_id"]
        attached = [self.world.attachment(channel_id, name, blob) for name, blob in files]
        flags = int(data.get("flags") or 0) | (FLAG_LOADING if kind == CB_DEFERRED_MESSAGE else 0)
        app_user = self.world.users[record.payload["application_id"]]
        source = record.payload.get("message")
        body = dict(data, flags=flags) if kind == CB_MESSAGE else {"flags": flags}
        message = self.world.message_payload(
            record.payload["channel_id"],
            app_user,
            body,
            webhook_id=app_user["id"],
            mtype=19 if source else 20,
            interaction_metadata=self._metadata(record),
            attachments=attached,
        )
        record.response_message_id = message["id"]
        await self._store_response(message)
        return message

    def _metadata(self, record: InteractionRecord) -> Json:
        """A response message's `interaction_metadata`: a click names the clicked message, a
        modal submit the click that opened the modal."""
        meta: Json = {
            "id": record.id,
            "type": record.payload["type"],
            "user": record.payload["member"]["user"],
            "authorizing_integration_owners": {"0": record.payload["guild_id"]},
        }
        if record.trigger is not None:
            meta["triggering_interaction_metadata"] = self._metadata(record.trigger)
        elif record.payload.get("message") is not None:
            meta["interacted_message_id"] = record.payload["message"]["id"]
        return meta

    async def _store_response(self, message: Json) -> None:
        if message["flags"] & FLAG_EPHEMERAL:
            self.world.messages[message["id"]] = message  # stored, never echoed to the bot
            await self.message_stored()  # a test may wait for it
        else:
            await self.store_and_echo(message)

    async def h_followup(self, request: web.Request) -> Json | None:
        """POST /webhooks/{application_id}/{token}: a follow-up message."""
        record = self._by_token(request.match_info["application_id"], request.match_info["token"])
        if record.acked is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = request[JSON_BODY] or {}
        original = self.world.messages.get(record.response_message_id or "")
        loading = original is not None and original["flags"] & FLAG_LOADING
        if record.callback_type == CB_DEFERRED_MESSAGE and original is not None and loading:
            await self.apply_edit(
                original,
                {k: v for k, v in body.items() if k in ("content", "embeds", "components")},
            )
            original["flags"] &= ~FLAG_LOADING
            return original
        validate_message(body)
        app_user = self.world.users[record.payload["application_id"]]
        message = self.world.message_payload(
            record.payload["channel_id"], app_user, body, webhook_id=app_user["id"], mtype=19
        )
        record.followups.append(message["id"])
        await self._store_response(message)
        return message

    def _webhook_target(self, request: web.Request) -> Json:
        record = self._by_token(request.match_info["application_id"], request.match_info["token"])
        message_id = request.match_info["message_id"]
        if message_id == "@original":
            message_id = record.response_message_id or ""
        message = self.world.messages.get(message_id)
        if message is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def h_webhook_get(self, request: web.Request) -> Json:
        """GET /webhooks/{app}/{token}/messages/{id}."""
        return self._webhook_target(request)

    async def h_webhook_edit(self, request: web.Request) -> Json:
        """PATCH /webhooks/{app}/{token}/messages/{id} (or @original)."""
        message = self._webhook_target(request)
        await self.apply_edit(message, request[JSON_BODY] or {})
        message["flags"] &= ~FLAG_LOADING
        return message

    async def h_webhook_delete(self, request: web.Request) -> None:
        """DELETE /webhooks/{app}/{token}/messages/{id}."""
        message = self._webhook_target(request)
        del self.world.messages[message["id"]]


SELECT_STRING = 3


def _component_data(component: Json, values: list[str] | None) -> Json:
    """An interaction's `data`: a button's custom_id, or a string select's picked values,
    checked as Discord does (only offered values, within min/max)."""
    data: Json = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if component["type"] != SELECT_STRING:
        if values is not None:
            raise AssertionError("values are picked in a select menu, not on a button")
        return data
    offered = {option["value"] for option in component.get("options", [])}
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if values is None or not set(values) <= offered or not low <= len(values) <= high:
        raise AssertionError(f"cannot pick {values!r} from {sorted(offered)} ({low}-{high})")
    data["values"] = list(values)
    return data
