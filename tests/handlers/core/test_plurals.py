"""A count reads right for one and for many in every language: no `(s)` plurals, and each
`{count|one|other}` takes the word its value needs."""

from __future__ import annotations

import re

import pytest

from handlers.core.i18n import LANGUAGES, LocaleError, Strings, load_table

# A noun after the count 1 that is the plural form: what "1 rounds" reads like.
_PLURAL_AFTER_ONE = {
    "en": re.compile(
        r"\b1 (?:more |earlier |kept |moderator )?"
        r"(rounds|votes|edits|turns|claims|quotes|characters|requests|tool uses)\b"
    ),
    "pt-BR": re.compile(
        r"\b1 (rodadas|votos|edições|vezes|afirmações|citações|caracteres|requisições|usos)\b"
        r"|\btodas as 1\b"
    ),
}


def _params(template: str, value: str) -> dict[str, str]:
    return dict.fromkeys(re.findall(r"\{(\w+)", template), value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_string_writes_a_plural_in_brackets(language: str) -> None:
    bracketed = re.compile(r"\w\((?:s|es|ões|ns|is)\)")
    found = sorted(k for k, text in load_table(language).items() if bracketed.search(text))
    assert found == []


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_no_string_says_a_plural_noun_after_the_count_one(language: str) -> None:
    strings = Strings(language)
    wrong = {}
    for key, template in load_table(language).items():
        text = strings(key, **_params(template, "1"))
        if found := _PLURAL_AFTER_ONE[language].search(text):
            wrong[key] = found.group(0)
    assert wrong == {}


@pytest.mark.parametrize(
    ("language", "key", "name", "one", "many"),
    [
        ("en", "front.status_ended", "round", "· 1 round ·", "· 3 rounds ·"),
        ("pt-BR", "front.status_ended", "round", "· 1 rodada ·", "· 3 rodadas ·"),
        ("en", "front.card_format_value", "rounds", "up to 1 round ·", "up to 3 rounds ·"),
        ("pt-BR", "front.card_format_value", "rounds", "até 1 rodada ·", "até 3 rodadas ·"),
        ("en", "wiki.conclusion.outcome", "rounds", "· 1 round", "· 3 rounds"),
        ("pt-BR", "wiki.conclusion.outcome", "rounds", "· 1 rodada", "· 3 rodadas"),
        ("en", "wiki.caught_up", "count", "the kept edit is applied", "all 3 kept edits are"),
        ("pt-BR", "wiki.caught_up", "count", "a edição guardada foi", "todas as 3 edições"),
        ("en", "poll.total", "total", "1 vote in all", "3 votes in all"),
        ("pt-BR", "poll.total", "total", "1 voto no total", "3 votos no total"),
        ("ko", "front.status_ended", "round", "1라운드", "3라운드"),
    ],
)
def test_a_counted_message_reads_right_for_one_and_for_many(
    language: str, key: str, name: str, one: str, many: str
) -> None:
    strings = Strings(language)
    params = _params(load_table(language)[key], "x")
    assert one in strings(key, **(params | {name: 1}))
    assert many in strings(key, **(params | {name: 3}))


def test_a_count_missing_from_the_call_is_a_clear_error() -> None:
    with pytest.raises(LocaleError, match="rounds"):
        Strings("en")("wiki.agenda.max_rounds")
