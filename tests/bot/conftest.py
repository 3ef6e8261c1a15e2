"""Fixtures of the front-end-wide tests (the doctor, the process): the loopback fake Discord."""

from tests.fakes.discord_fixtures import fake

__all__ = ["fake"]
