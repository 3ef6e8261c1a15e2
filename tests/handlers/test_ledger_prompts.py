"""Seed 004's standing conventions, as the prompts carry them to the models, in each language:
the debaters cite grounding sources inline; the front page is in plain language (jargon
translated, terms glossed or footnoted, short sentences, concrete examples) and uses the full
Markdown toolkit (metadata and at-a-glance tables, callouts, bold lead-ins, ordered and
unordered lists, blockquotes, horizontal rules, footnotes for citations, the diagram)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from handlers.core.formats.ledger.rules import LEDGER_FORMAT
from handlers.core.model import AG, CLAUDE
from handlers.prompting import render_pieces
from tests.handlers.conftest import Rig
from tests.handlers.test_ledger import LEDGER, confirming, front, said
from tests.tools.wiki.support import debate

CONVERGE = (("ledger.end", "converge"), ("ledger.stance", "assigned"))
CONDUCT = {  # steelman before rebutting; concede what is true; forge new insight
    "en": (
        "steelman the strongest opposing point before you rebut it",
        "concede plainly what is true",
        "forge new insight rather than repeat",
    ),
    "ko": (
        "반박하기 전에 상대의 가장 강한 논점을",
        "옳은 것은 분명히 인정하고",
        "새로운 통찰을 만들고",
    ),
    "pt-BR": (
        "apresente a versão mais forte do ponto contrário (steelman) antes de refutá-lo",
        "conceda com clareza o que é verdade",
        "produza insight novo em vez de repetir",
    ),
}
CITE_INLINE = {
    "en": "cite sources inline",
    "ko": "권위 있는 출처가 있으면 본문 안에 인용",
    "pt-BR": "cite fontes no texto",
}
# What each convention reads as in each language's front-page prompt.
PLAIN = {
    "en": (
        "Plain language",
        "translate jargon and terms of art into everyday words",
        "gloss or footnote any that must stay",
        "short sentences, concrete examples",
    ),
    "ko": (
        "쉬운 말",
        "전문 용어와 업계 용어는 일상의 말로 옮기고",
        "풀이하거나 각주를 다세요",
        "짧은 문장, 구체적인 예",
    ),
    "pt-BR": (
        "Linguagem simples",
        "traduza jargão e termos técnicos para",
        "explique ou ponha\nem nota de rodapé",
        "frases curtas,\nexemplos concretos",
    ),
}
TOOLKIT = {
    "en": (
        "metadata table",
        "at-a-glance",
        "[!IMPORTANT]",
        "bold lead-ins",
        "ordered\nand unordered lists",
        "blockquotes (> ...)",
        "horizontal rules (---)",
        "footnotes ([^1]) that cite the sources",
    ),
    "ko": (
        "메타데이터 표",
        "한눈에 보는",
        "[!IMPORTANT]",
        "굵은 도입구",
        "번호 목록과 글머리표 목록",
        "인용 블록(> ...)",
        "가로줄(---)",
        "출처를 밝히는 각주([^1])",
    ),
    "pt-BR": (
        "tabela de\nmetadados",
        "visão geral",
        "[!IMPORTANT]",
        "aberturas em negrito",
        "listas numeradas e com marcadores",
        "citações em bloco\n(> ...)",
        "linhas horizontais (---)",
        "notas\nde rodapé ([^1]) que citam as fontes",
    ),
}


def _flat(text: str) -> str:
    """Line breaks as spaces: a prompt's wrapping is not its wording."""
    return " ".join(text.split())


def _has(prompt: str, phrases: tuple[str, ...]) -> None:
    for phrase in phrases:
        assert _flat(phrase) in _flat(prompt), phrase


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
async def test_the_debaters_cite_inline_and_the_front_page_is_plain_and_glanceable(
    tmp_path: Path, language: str
) -> None:
    rig = Rig(
        tmp_path / "p.sqlite3", format="ledger", options=CONVERGE, language=language, max_rounds=1
    )
    for seat in (AG, CLAUDE):
        rig.debaters[seat].enqueue(said(seat, 1), confirming("A1", "M1"))
    rig.moderator.enqueue_task("ledger", json.dumps(LEDGER))
    rig.moderator.enqueue_task("front-page", front(["A1", "M1", "Q1"]))
    await rig.start()
    try:
        await rig.debate_to_end()
        for seat in (AG, CLAUDE):  # every turn's brief: the conduct, inline citations
            brief = rig.debaters[seat].requests[0].prompt
            assert CITE_INLINE[language] in _flat(brief)
            _has(brief, CONDUCT[language])
        asked = rig.moderator.tasks[-1]
        assert asked.task == "front-page"
        _has(asked.prompt, PLAIN[language])
        _has(asked.prompt, TOOLKIT[language])
    finally:
        await rig.stop()


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
def test_an_open_exploration_s_front_page_keeps_the_same_conventions(language: str) -> None:
    open_debate = replace(
        debate(),
        setup=replace(debate().setup, format="ledger", options=(("ledger.end", "open"),)),
    )
    prompt = render_pieces(LEDGER_FORMAT.task_brief(open_debate, "front-page", ()), language)
    _has(prompt, PLAIN[language])
    _has(prompt, TOOLKIT[language][2:])  # its own table: what each participant explored


SCRIBE = {
    "en": ("add no argument of your own", "Drop nothing, weaken nothing"),
    "ko": ("당신 자신의 논증은 더하지 마세요", "빠뜨리거나 약하게 바꾸지 마세요"),
    "pt-BR": ("não acrescente nenhum argumento seu", "Não omita nada, não enfraqueça nada"),
}


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
def test_the_ledger_is_scribe_work_from_the_turns_verbatim(language: str) -> None:
    converging = replace(debate(), setup=replace(debate().setup, format="ledger"))
    prompt = render_pieces(LEDGER_FORMAT.task_brief(converging, "ledger", ()), language)
    _has(prompt, SCRIBE[language])
