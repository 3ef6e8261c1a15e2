"""Fixtures of the Discord side: the loopback fake, the bot's client, AG's client, errors."""

from tests.fakes.discord_fixtures import ag_client, client, errors, fake

__all__ = ["ag_client", "client", "errors", "fake"]
