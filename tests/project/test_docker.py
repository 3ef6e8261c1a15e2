"""What the docs say about Docker (docs/setup.md) holds in the Dockerfile and the compose file
(no engine runs here: the files are read)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.clis import installed_or_skip
from tests.fakes.fake_anthropic import find_claude_bin
from tests.postgres import PostgresServer
from tools.store.db import Database, bundled_migrations

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "docker compose run --rm --no-deps --entrypoint claude bot auth login"


def text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def pinned_claude_node_major() -> int:
    """The Node major version the pinned claude CLI declares (`engines.node` in the lock file)."""
    lock = json.loads(text(".ci/node/package-lock.json"))
    wanted = lock["packages"]["node_modules/@anthropic-ai/claude-code"]["engines"]["node"]
    found = re.fullmatch(r">=\s*(\d+)(?:\.\d+)*", wanted)
    assert found, wanted
    return int(found.group(1))


def test_the_image_has_the_node_the_pinned_cli_declares_from_an_official_node_image() -> None:
    found = re.findall(r"^FROM node:(\d+)", text("Dockerfile"), re.MULTILINE)
    assert found and int(found[0]) >= pinned_claude_node_major()
    assert not re.search(r"apt-get install[^\n]*(nodejs|npm)", text("Dockerfile"))


def test_the_clis_are_installed_from_the_lock_file() -> None:
    dockerfile = text("Dockerfile")
    assert re.search(r"^COPY .*\.ci/node/package-lock\.json", dockerfile, re.MULTILINE)
    assert re.search(r"^RUN npm ci --prefix /app/\.ci/node", dockerfile, re.MULTILINE)
    assert "npm install" not in dockerfile


def test_the_login_command_of_the_readme_goes_past_the_entrypoint() -> None:
    assert re.search(r'^ENTRYPOINT \["debate-room"\]', text("Dockerfile"), re.MULTILINE)
    assert LOGIN in text("docs/setup.md") and LOGIN in text("docker-compose.yml")
    assert "claude login" not in text("README.md") + text("docs/setup.md") + text(".env.example")


@pytest.mark.cli
def test_the_pinned_claude_cli_has_the_login_subcommand_the_readme_names() -> None:
    claude = str(installed_or_skip(find_claude_bin(), "claude"))
    shown = subprocess.run(
        [claude, "auth", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert re.search(r"^\s+login\b", shown.stdout, re.MULTILINE), shown.stdout
    setup = subprocess.run(
        [claude, "setup-token", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert setup.returncode == 0 and "token" in setup.stdout


def test_the_setup_reloads_env_with_up_not_restart() -> None:
    readme = " ".join(text("docs/setup.md").split())
    assert "docker compose restart bot" not in readme
    assert "run `docker compose up -d` again: it recreates the bot with the new `.env`" in readme


def test_the_readme_states_the_prerequisites() -> None:
    readme = text("README.md")
    assert "Python ≥ 3.11" in readme and f"Node.js ≥ {pinned_claude_node_major()}" in readme
    assert not re.search(r"Node(\.js)? (≥ ?|>= ?)?20\b|Node(\.js)? 20\+", readme)
    requires = re.search(r'requires-python = ">=(\d+\.\d+)"', text("pyproject.toml"))
    assert requires and requires.group(1) == "3.11"


def test_the_bot_gets_its_own_database_in_the_wiki_s_postgres() -> None:
    compose = text("docker-compose.yml")
    url = re.search(r"DATABASE_URL: (postgresql://\S+)", compose)
    assert url is not None
    assert url.group(1) == (
        "postgresql://debate_room:${BOT_DB_PASSWORD:-debate-room-change-me}@db:5432/debate_room"
    )
    assert "./docker/postgres-init:/docker-entrypoint-initdb.d:ro" in compose
    assert "BOT_DB_PASSWORD: ${BOT_DB_PASSWORD" in compose  # the init script reads it


async def test_the_init_script_makes_the_database_and_user_the_bot_connects_as(
    postgres_server: PostgresServer,
) -> None:
    env = {
        **os.environ,
        "PATH": f"{postgres_server.bin}:{os.environ['PATH']}",
        "PGHOST": str(postgres_server.root),
        "PGPORT": str(postgres_server.port),
        "POSTGRES_USER": "postgres",
        "POSTGRES_DB": "postgres",
        "BOT_DB_PASSWORD": "s3cret-pw",
    }
    script = ROOT / "docker" / "postgres-init" / "10-debate-room.sh"
    done = subprocess.run(["sh", str(script)], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    url = f"postgresql://debate_room:s3cret-pw@127.0.0.1:{postgres_server.port}/debate_room"
    db = await Database.open(url)
    try:
        assert await db.applied_versions() == [v for v, _, _ in bundled_migrations("postgres")]
        owner = await db.fetch_one(
            "SELECT current_user, datcollate FROM pg_database WHERE datname = current_database()"
        )
        assert owner is not None and tuple(owner) == ("debate_room", "C")
    finally:
        await db.close()


def service(name: str) -> str:
    """One service's block of docker-compose.yml (up to the next service or top-level key)."""
    found = re.search(
        rf"^  {name}:\n(.*?)(?=^  \w[\w-]*:\n|^\S)",
        text("docker-compose.yml"),
        re.MULTILINE | re.DOTALL,
    )
    assert found, name
    return found.group(1)


def test_postgres_has_a_healthcheck_and_the_bot_and_worker_wait_for_it() -> None:
    db = service("db")
    # Over TCP (-h): during the first start's init scripts PostgreSQL listens on its socket
    # only, so a socket check passes before the bot and Wiki.js can connect.
    assert re.search(
        r"healthcheck:.*test: \[\"CMD-SHELL\", \"pg_isready -h 127\.0\.0\.1 ", db, re.DOTALL
    )
    for name in ("bot", "worker", "wiki"):
        waits = re.search(
            r"depends_on:\n\s+(?:\w+:\n(?:\s{8}.*\n)+\s+)*db:\n\s+condition: (\S+)", service(name)
        )
        assert waits and waits.group(1) == "service_healthy", name


def test_wiki_js_is_published_on_this_machine_only() -> None:
    ports = re.findall(r'^\s+- "([\d.:]+)"', service("wiki"), re.MULTILINE)
    assert ports == ["127.0.0.1:3000:3000"]


def test_the_build_context_leaves_out_local_state_and_secrets() -> None:
    ignored = {line.strip() for line in text(".dockerignore").splitlines()}
    for name in (".venv", ".git", "node_modules", ".ci/node/node_modules", "data", "wiki", ".env"):
        assert name in ignored, name
    assert {"**/__pycache__", ".mypy_cache", ".pytest_cache"} <= ignored


def test_compose_documents_the_public_wiki_address() -> None:
    bot = service("bot")
    assert "WIKIJS_URL: http://wiki:3000" in bot and "WIKI_PUBLIC_URL" in bot
    assert "WIKI_PUBLIC_URL" in text(".env.example")


def test_the_bot_and_worker_wait_on_bad_settings_instead_of_restarting() -> None:
    """On the first `up -d` WIKIJS_API_KEY is still blank: under `restart: unless-stopped` an
    exit would loop, so both wait and say what to do (and the README tells where to look)."""
    for name in ("bot", "worker"):
        block = service(name)
        assert 'WAIT_ON_BAD_SETTINGS: "true"' in block and "restart: unless-stopped" in block
    assert "docker compose logs bot" in text("docs/setup.md")
