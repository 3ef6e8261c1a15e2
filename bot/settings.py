"""Every setting, read once from the environment and `.env` into one typed object."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.settings_checks import (
    SettingsError,
    check_database_url,
    check_web_address,
    describe_errors,
    format_problem,
    mask_database_url,
    misnamed_settings,
)
from handlers.core.anonymous.peers import ANONYMOUS
from handlers.core.formats import FORMATS
from handlers.core.formats.adversarial.seats import (
    LIGHT_MODEL,
    RECONCILER_BACKEND,
    RECONCILER_MODEL,
    TIER_MODELS,
)
from handlers.core.formats.boardroom.advisor import (
    ADVISOR_OPTION,
    MODERATOR_MODEL,
    check_spec,
    operations,
    spec_for,
)
from handlers.core.formats.boardroom.squad import GROUNDING
from handlers.core.participants import Backend, Participant, RosterError, parse_roster, roster_text
from tools.claude.debater import read_only_tools

__all__ = [
    "Settings",
    "SettingsError",
    "load_settings",
    "settings_from_option",
]

IdList = Annotated[tuple[int, ...], NoDecode]
DEFAULT_PARTICIPANTS = "ag:ag-relay:AG,claude:claude-cli:Claude"
DATABASE_FILE = "debate-room.sqlite3"  # DATABASE_PATH's default, in DATA_DIR
Home = Annotated[Path, AfterValidator(Path.expanduser)]  # `~/x` as a shell reads it (.env is none)
MAX_GROUNDING_CHARS = 20_000  # of a boardroom grounding file: it goes into every member's brief


def _grounding_file(path: Path) -> Path:
    """A boardroom grounding file: readable UTF-8 text, at most MAX_GROUNDING_CHARS."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path} as UTF-8 text: {exc}") from None
    if len(text) > MAX_GROUNDING_CHARS:
        raise ValueError(f"{path} has {len(text)} characters; at most {MAX_GROUNDING_CHARS}")
    return path


GroundingFile = Annotated[Path, AfterValidator(Path.expanduser), AfterValidator(_grounding_file)]
WebAddress = Annotated[str, AfterValidator(check_web_address)]
DatabaseUrl = Annotated[SecretStr, AfterValidator(check_database_url)]


# Upper bounds of the figures a person types: beyond them a value is a typo (or `1e308`), and a
# time that large no longer converts to a date (an OverflowError at the first timer).
HOUR_SECONDS = 3600
DAY_SECONDS = 24 * HOUR_SECONDS
WEEK_MINUTES = 7 * 24 * 60
MAX_BUDGET_USD = 100_000.0


class Settings(BaseSettings):
    """debate-room's configuration (names as in `.env.example`)."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=True,
        allow_inf_nan=False,  # `inf` or `nan` is no timeout, budget or wait: refused by name
        # The string under each setting is its description: docs/settings.md is generated
        # from them (bot/settings_doc.py).
        use_attribute_docstrings=True,
    )

    # Discord
    DISCORD_TOKEN: SecretStr | None = None
    """The bot's token (required to run)."""
    DEBATE_CHANNEL_IDS: IdList = ()
    """Watched channels, comma-separated ids."""
    APPROVER_ROLE_ID: int | None = None
    """A role whose members may approve or stop any debate, and use `/debate` (as may Manage
    Server)."""
    PROPOSAL_TTL_MINUTES: int = Field(30, ge=1, le=WEEK_MINUTES)
    """Minutes before an unanswered card expires."""
    # AG through the Discord relay
    AG_USER_IDS: IdList = ()
    """The account id(s) AG posts as."""
    AG_RELAY_CHANNEL_ID: int | None = None
    """Where AG's prompts are posted."""
    AG_TIMEOUT_SECONDS: float = Field(900, gt=0, le=DAY_SECONDS)
    """How long AG has to answer a turn, counted from its prompt (then retried once, then
    skipped)."""
    AG_QUIET_SECONDS: float = Field(20, ge=0, le=HOUR_SECONDS)
    """Quiet gap that ends a multi-message AG reply."""
    # The moderator
    MODERATOR_BACKEND: Literal["api", "cli"] = "api"
    """`api` (google-genai) or `cli` (Gemini CLI)."""
    GEMINI_API_KEY: SecretStr | None = None
    """Required with the api backend."""
    GEMINI_MODEL: str = "gemini-flash-latest"
    """The moderator's model."""
    GEMINI_DAILY_REQUEST_BUDGET: int = Field(1000, ge=0)
    """Moderator requests per day."""
    GEMINI_TIMEOUT_SECONDS: float = Field(60, gt=0, le=HOUR_SECONDS)
    """Per request."""
    GEMINI_CLI_BIN: str = "gemini"
    """The Gemini CLI for the cli backend."""
    DETECT_COOLDOWN_SECONDS: float = Field(120, ge=0, le=DAY_SECONDS)
    """At most one detection request per channel in this time."""
    DETECT_MIN_NEW_MESSAGES: int = Field(4, ge=1, le=1000)
    """New messages needed before the next detection."""
    DETECT_MIN_CONFIDENCE: float = Field(0.7, ge=0, le=1)
    """The detection threshold: a card is posted only when the probability that the chat holds
    an open decision worth a debate is at least this (0 to 1). Each server can set its own with
    `/debate config threshold:`; this is the default where none is set."""
    DETECT_DECISION_MODEL: str = "gemini-decision-1"
    """The model of the Gemini Decisions API that gives that probability (one yes/no question
    per judged window, with the api backend); empty: the moderator's own `confidence` is used."""
    # Claude Code
    CLAUDE_BIN: str = "claude"
    """The Claude Code CLI."""
    CLAUDE_MODEL: str | None = None
    """E.g. `sonnet` or `opus`; empty = the CLI's default."""
    # The Claude models of the adversarial seed's tiers (`--model`): Advocate, Challenger and
    # the Reconciler below FULL run mid-tier, the FULL Reconciler top-tier (blank: CLAUDE_MODEL).
    CLAUDE_MODEL_MID: str = "sonnet"
    """The adversarial mid-tier on Claude: Advocate, Challenger, Reconciler below FULL."""
    CLAUDE_MODEL_TOP: str = "opus"
    """The adversarial top-tier on Claude: the FULL Reconciler."""
    CLAUDE_STRUCTURED_OUTPUT: bool = True
    """Claude answers in the format's reply shape as checked by the CLI itself
    (`--json-schema`: it asks the model again when a field is missing or wrong), its words
    still shown live as they are written; when the CLI gives up on the shape, the format's
    own parser reads what Claude wrote. `false`: the shape is asked in the prompt only."""
    CLAUDE_FALLBACK_MODEL: str = ""
    """The models a Claude seat falls back to when its model is busy or unavailable
    (`--fallback-model`, comma-separated in order): `sonnet` for every Claude seat, or per
    seat `claude=sonnet;critic=haiku,sonnet` (seat ids of PARTICIPANTS); empty = none."""
    CLAUDE_WORKDIR: Home | None = None
    """A fixed working folder (resume is scoped to it)."""
    CLAUDE_TIMEOUT_SECONDS: float = Field(900, gt=0, le=DAY_SECONDS)
    """Per turn; the process group is ended after it."""
    CLAUDE_TOOLS: str = "Read,Grep,Glob,WebSearch,WebFetch"
    """Read-only tools only."""
    CLAUDE_CODE_MAX_RETRIES: int = Field(2, ge=0, le=100)
    """The CLI's own retries."""
    CLAUDE_MAX_CONCURRENCY: int = Field(2, ge=1, le=64)
    """CLI processes at once."""
    CLAUDE_SESSION_TTL_DAYS: int = Field(14, ge=1, le=3650)
    """Session ids of ended debates are forgotten after this."""
    # false: ANTHROPIC_API_KEY is removed from Claude's environment (the subscription pays)
    CLAUDE_KEEP_API_KEY: bool = False
    """`true` passes `ANTHROPIC_API_KEY` on to Claude (its turns then bill the API, not your
    subscription)."""
    # The wiki
    WIKIJS_URL: WebAddress | None = None  # where the bot calls Wiki.js's API
    """Wiki.js; empty = the local Markdown wiki."""
    WIKIJS_API_KEY: SecretStr | None = Field(None, validate_default=True)  # needed with the URL
    """A full-access API key (required with `WIKIJS_URL`)."""
    # Where people open the wiki: the base of every link posted (blank: WIKIJS_URL), for a bot
    # that reaches Wiki.js at an address people cannot (http://wiki:3000 in docker compose).
    WIKI_PUBLIC_URL: WebAddress | None = None
    """The address people open the wiki at: the base of every link the bot posts."""
    WIKI_ROOT: str = "debates"
    """The pages' first path segment."""
    LOCAL_WIKI_DIR: Home = Path("./wiki")
    """The local wiki's folder."""
    # The engine
    DATABASE_PATH: Home = Path("./data") / DATABASE_FILE  # unless set: DATA_DIR/DATABASE_FILE
    """The SQLite file (the default store; one bot process per file)."""
    # postgresql://user:password@host:5432/database selects PostgreSQL instead of the file.
    DATABASE_URL: DatabaseUrl | None = None
    """`postgresql://user:password@host:5432/database`: PostgreSQL instead of the file (never
    shown: messages mask the password)."""
    DATA_DIR: Home = Path("./data")
    """Claude's working folders and other state."""
    MAX_ROUNDS: int = Field(6, ge=1, le=50)
    """Rounds before the debate concludes."""
    LANGUAGE: Literal["ko", "en", "pt-BR"] = "ko"
    """`ko`, `en` or `pt-BR`: the bot's words and the debaters' language."""
    # Who debates: `id:backend[:name[:persona]]`, comma-separated (backends: ag-relay,
    # claude-cli, gemini-cli); blank: AG on the relay and Claude on its CLI.
    PARTICIPANTS: str = DEFAULT_PARTICIPANTS
    """Who debates: `id:backend[:name[:persona]]`, comma-separated; a name or persona is at most
    80 characters."""
    # The format a debate runs when none is chosen on the card.
    DEFAULT_FORMAT: str = Field("free", validate_default=True)
    """The debate format when none is chosen (`free`, `ledger`, `adversarial`, `boardroom`: 2 or
    more participants, narrowed to 5)."""
    # The adversarial format's Reconciler: a fresh session on this backend, on this model
    # (blank: the backend's own).
    ADVERSARIAL_RECONCILER: Backend = Backend.CLAUDE_CLI
    """The backend of the adversarial Reconciler's fresh session."""
    ADVERSARIAL_RECONCILER_MODEL: str = ""
    """The Reconciler's model; blank: its tier's on Claude, else the backend's own."""
    ADVISOR: str = "auto"
    """Who reviews the boardroom's synthesis draft (seed 000's advisor): `auto` (Claude on
    `CLAUDE_MODEL_TOP` when the panel has a Claude seat, else the moderator), `moderator` (a
    second moderator request), or `<backend>[:<model>]` (`claude-cli` or `gemini-cli`: a
    fresh session of its own)."""
    ADVISOR_OPERATIONS: str = ""
    """The advisor per operation, as the seed's `advisor.operacoes.debate-sintese`:
    `debate-synthesis=<the same choices as ADVISOR>` overrides `ADVISOR` there."""
    BUDGET_PAUSE: bool = True  # at the round budget, ask the people: one more round, or conclude
    """At the round budget, pause with Extend by one round / Conclude now (false: end there)."""
    # A stalemate (with BUDGET_PAUSE) ends in a native Discord poll running this many hours
    # (Discord allows 1 hour to 32 days).
    POLL_HOURS: int = Field(24, ge=1, le=768)
    """A stalemate ends in a native Discord poll open this many hours (1..768, Discord's 32
    days); needs `BUDGET_PAUSE`."""
    # A concluded debate's thread is archived this many hours after its end (0: never).
    ARCHIVE_AFTER_HOURS: int = Field(24, ge=0, le=8760)
    """A concluded debate's thread is archived this many hours after its end, with a last
    message linking the Conclusion (0: never); a stored timer, so a restart keeps it, and with
    workers the process that claims the debate when it falls due archives it."""
    # The people's budget in dollars (what the debaters' turns cost; 0: rounds only): once spent,
    # the debate pauses at the next round as at the round budget.
    BUDGET_USD: float = Field(0.0, ge=0.0, le=MAX_BUDGET_USD)
    """The people's budget in dollars (0: rounds only); once spent the debate pauses at the next
    round."""
    # The ledger format's setup (the card's two questions), until the card asks them.
    LEDGER_END_STATE: Literal["converge", "open"] = "converge"
    """Ledger format: `converge` (a ledger of agreed facts) or `open`."""
    LEDGER_STANCE: Literal["assigned", "neutral"] = "assigned"
    """Ledger format: `assigned` standpoints with a steelman, or `neutral`."""
    LEDGER_MODE: Literal["turns", "orchestrate"] = "turns"  # more than two: always orchestrate
    """Ledger format: `turns` (one at a time) or `orchestrate` (rounds fanned out)."""
    # Each debater reads the others as letters, with no seat, vendor or model name (the card's
    # default; the people may change it there).
    ANONYMOUS_PEERS: bool = False
    """Each debater reads the others as letters, with no seat, vendor or model name (the card's
    default)."""
    # The boardroom's grounding (seed 000's project context, active spec and guardrails): files
    # whose text, read at start-up, every member's round-1 brief carries (the card's forms
    # add to it per debate).
    BOARDROOM_PROJECT_FILE: GroundingFile | None = None
    """Boardroom: a file of the project's context (domain, what is true today) every member's
    round-1 brief carries; at most 20,000 characters."""
    BOARDROOM_SPEC_FILE: GroundingFile | None = None
    """Boardroom: a file of the active spec the decision belongs to, in every member's round-1
    brief; at most 20,000 characters."""
    BOARDROOM_GUARDRAILS_FILE: GroundingFile | None = None
    """Boardroom: a file of the guardrails the decision must keep, in every member's round-1
    brief; at most 20,000 characters."""
    GEMINI_DEBATER_MODEL: str = "pro"  # the Gemini CLI's model for gemini-cli participants
    """The Gemini CLI's model for `gemini-cli` participants."""
    LOG_LEVEL: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    """DEBUG, INFO, WARNING, ERROR (any case)."""
    RETRY_WAIT_SCALE: float = Field(1.0, ge=0, le=100)  # 0 turns every retry wait off (tests)
    """Multiplies every retry wait (0 in tests)."""
    # Several processes sharing the debates (with DATABASE_URL). A debate's lease
    # lasts LEASE_SECONDS and is renewed every third of it; a dead process's debates move on
    # after at most that long. A process holds at most WORKER_MAX_DEBATES debates (its share of
    # the machine); GATEWAY_ONLY makes `run` only receive events and leave debates to workers.
    LEASE_SECONDS: float = Field(30, ge=3, le=HOUR_SECONDS)
    """With `DATABASE_URL`: how long a debate's lease lasts (renewed every third of it)."""
    WORKER_MAX_DEBATES: int = Field(20, ge=1, le=10_000)
    """With `DATABASE_URL`: the most debates one process runs at once."""
    WORKER_POLL_SECONDS: float = Field(
        2.0, gt=0, le=HOUR_SECONDS
    )  # the fallback when no NOTIFY wakes a worker
    """With `DATABASE_URL`: how often a process looks for debates, commands and the timers of
    the debates it holds, unwoken."""
    GATEWAY_ONLY: bool = False  # needs DATABASE_URL (checked after it: fields go in order)
    """Needs `DATABASE_URL`: `run` only receives clicks and messages; workers run the debates."""
    # Refused settings make `run` and `worker` wait (saying what to fix) instead of exiting 2:
    # under a restart policy (docker-compose.yml sets it), an exit would only loop.
    WAIT_ON_BAD_SETTINGS: bool = False
    """Refused settings make `run` and `worker` wait, saying what to fix, instead of exiting 2
    (Docker sets it: a restart policy would loop)."""

    @model_validator(mode="before")
    @classmethod
    def _blank_is_unset(cls, data: Any) -> Any:
        """`NAME=` (as `.env.example` has them) means the default, for every setting."""
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if not (isinstance(v, str) and not v.strip())}
        return data

    @field_validator("DEBATE_CHANNEL_IDS", "AG_USER_IDS", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part for part in value.replace(" ", "").split(",") if part]
            bad = [part for part in parts if not part.isdigit()]
            if bad:
                raise ValueError(f"not a numeric id: {', '.join(bad)}")
            return tuple(int(part) for part in parts)
        return value

    @field_validator("WIKIJS_API_KEY")
    @classmethod
    def _wiki_key(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if value is None and info.data.get("WIKIJS_URL"):
            raise ValueError("not set, and WIKIJS_URL needs it")
        return value

    @field_validator("GATEWAY_ONLY")
    @classmethod
    def _gateway_only(cls, value: bool, info: ValidationInfo) -> bool:
        # DATABASE_URL missing from info.data: it was invalid, and is reported already.
        if value and "DATABASE_URL" in info.data and info.data["DATABASE_URL"] is None:
            raise ValueError("true needs DATABASE_URL: the workers share the debates through it")
        return value

    @model_validator(mode="after")
    def _database_in_data_dir(self) -> Settings:
        if "DATABASE_PATH" not in self.model_fields_set:  # DATA_DIR moves the default file
            self.DATABASE_PATH = self.DATA_DIR / DATABASE_FILE
        return self

    @property
    def database_target(self) -> str:
        """Where the bot's database is: the DATABASE_URL if set, else the DATABASE_PATH file."""
        if self.DATABASE_URL is not None:
            return self.DATABASE_URL.get_secret_value()
        return str(self.DATABASE_PATH)

    @property
    def database_shown(self) -> str:
        """The database as messages name it: the path, or the URL with its password masked."""
        return mask_database_url(self.database_target)

    @field_validator("PARTICIPANTS")
    @classmethod
    def _roster(cls, value: str) -> str:
        try:
            return roster_text(parse_roster(value))
        except RosterError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("DEFAULT_FORMAT")
    @classmethod
    def _format_runs(cls, value: str, info: ValidationInfo) -> str:
        problem = format_problem(value, info.data.get("PARTICIPANTS"))
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("ADVISOR")
    @classmethod
    def _advisor(cls, value: str) -> str:
        return check_spec(value)

    @field_validator("ADVISOR_OPERATIONS")
    @classmethod
    def _advisor_operations(cls, value: str) -> str:
        operations(value)
        return value

    @property
    def format_options(self) -> tuple[tuple[str, str], ...]:
        """The formats' option defaults, as the engine stores them on a debate."""
        return (
            (RECONCILER_BACKEND, self.ADVERSARIAL_RECONCILER.value),
            (RECONCILER_MODEL, self.ADVERSARIAL_RECONCILER_MODEL.strip()),
            (TIER_MODELS["mid-tier"], self.CLAUDE_MODEL_MID.strip()),
            (TIER_MODELS["top-tier"], self.CLAUDE_MODEL_TOP.strip()),
            (LIGHT_MODEL, self.GEMINI_MODEL.strip()),  # the moderator's light checks
            (ADVISOR_OPTION, spec_for(self.ADVISOR, self.ADVISOR_OPERATIONS)),
            (MODERATOR_MODEL, self.GEMINI_MODEL.strip()),
            ("ledger.end", self.LEDGER_END_STATE),
            ("ledger.mode", self.LEDGER_MODE),
            ("ledger.stance", self.LEDGER_STANCE),
            (ANONYMOUS, "on" if self.ANONYMOUS_PEERS else "off"),
            *(
                (key, path.read_text(encoding="utf-8").strip())
                for key, path in zip(GROUNDING, self._grounding_files, strict=True)
                if path is not None
            ),
        )

    @property
    def _grounding_files(self) -> tuple[Path | None, ...]:
        """The boardroom's grounding files, in GROUNDING's order."""
        return self.BOARDROOM_PROJECT_FILE, self.BOARDROOM_SPEC_FILE, self.BOARDROOM_GUARDRAILS_FILE

    @property
    def roster(self) -> tuple[Participant, ...]:
        """The participants a debate opens with, as PARTICIPANTS names them."""
        return parse_roster(self.PARTICIPANTS)

    @field_validator("LOG_LEVEL", "MODERATOR_BACKEND", mode="before")
    @classmethod
    def _cased(cls, value: object, info: ValidationInfo) -> object:
        """`info`, `CLI`: LOG_LEVEL in upper case, MODERATOR_BACKEND in lower, however written."""
        if not isinstance(value, str):
            return value
        return value.strip().upper() if info.field_name == "LOG_LEVEL" else value.strip().lower()

    @field_validator("LANGUAGE", mode="before")
    @classmethod
    def _language(cls, value: object) -> object:
        """`KO`, `pt-br`, `PT_BR`: the language however it is cased."""
        if not isinstance(value, str):
            return value
        wanted = value.strip().lower().replace("_", "-")
        return {"pt-br": "pt-BR"}.get(wanted, wanted)

    @field_validator("CLAUDE_FALLBACK_MODEL")
    @classmethod
    def _fallbacks(cls, value: str) -> str:
        fallback_models(value)
        return value

    @field_validator("CLAUDE_TOOLS")
    @classmethod
    def _read_only_tools(cls, value: str) -> str:
        read_only_tools(value)
        return value


def load_settings(env_file: str | Path | None = ".env", *, explicit: bool = False) -> Settings:
    """Read the settings (an `explicit` file must exist); a bad value is one line of the error."""
    if env_file is not None and explicit and not Path(env_file).is_file():
        raise SettingsError(f"--env-file {env_file}: no such file")
    fields = Settings.model_fields
    misnamed = misnamed_settings(fields, None if env_file is None else Path(env_file), os.environ)
    try:
        settings = Settings(_env_file=env_file)
    except ValidationError as exc:
        hints = {"DEFAULT_FORMAT": "one of " + ", ".join(FORMATS)}
        raise SettingsError(*describe_errors(exc, fields, hints), *misnamed) from None
    if misnamed:
        raise SettingsError(*misnamed)
    return settings


def one_setting(name: str, value: str) -> Any:
    """`value` read as the setting `name` is (its validators: `PT_BR` is pt-BR), without
    reading any other setting; SettingsError with the very line `run` prints if invalid."""
    try:
        checked = Settings.__pydantic_validator__.validate_assignment(
            Settings.model_construct(), name, value
        )
    except ValidationError as exc:
        raise SettingsError(*describe_errors(exc, Settings.model_fields)) from None
    return getattr(checked, name)


def settings_from_option(env_file: str | None) -> Settings:
    """The settings from `--env-file` (which must exist when given) or `.env` (if present)."""
    return load_settings(".env" if env_file is None else env_file, explicit=env_file is not None)


def fallback_models(value: str) -> dict[str, str]:
    """CLAUDE_FALLBACK_MODEL read as seat id -> models ("" for every seat); ValueError for
    an entry that is not `models` or `seat=models`."""
    value = value.strip()
    if not value:
        return {}
    if "=" not in value:
        return {"": _models(value)}
    found: dict[str, str] = {}
    for entry in filter(None, (part.strip() for part in value.split(";"))):
        seat, sep, models = entry.partition("=")
        if not sep or not seat.strip() or not models.strip():
            raise ValueError(f"{entry!r} is not seat=models (e.g. critic=haiku,sonnet)")
        found[seat.strip().lower()] = _models(models)
    return found


def _models(value: str) -> str:
    """A comma-separated list of model names, spaces dropped."""
    return ",".join(name.strip() for name in value.split(",") if name.strip())
