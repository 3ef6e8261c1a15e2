"""Anonymous peers, pure: every spelling of a name becomes its letter, and nothing else does
(through the real engine: tests/handlers/test_anonymous_peers.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from handlers.core.anonymous.peers import anonymize, letters, peer_names
from handlers.core.model import AG, CLAUDE, GEMINI, Backend, Debate, Participant, Phase, Setup
from tests.handlers.conftest import proposal

NAMES = {
    **dict.fromkeys(("claude", "claude code", "anthropic", "sonnet", "opus", "클로드"), "B"),
    "claude-sonnet-4-5-20250929": "B",
    **dict.fromkeys(("gemini", "google", "제미나이", "구글"), "A/C"),
    "ag": "A",
    "gemini cli": "C",
}


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("CLAUDE Code는 AG와 다르고 tag, agenda? ag.", "B는 A와 다르고 tag, agenda? A."),
        ("클로드는 구글의 제미나이와", "B는 A/C의 A/C와"),  # Korean particles attach
        ("Claude3, Claude-3.5, Claude 3.5, Gemini2.5, Gemini-2.5는", "B, B, B, A/C, A/C는"),
        ("ClaudeCode, claude_code, claude-code, Claude - Code", "B, B, B, B"),
        ("Ｃｌａｕｄｅ와 𝐂𝐥𝐚𝐮𝐝𝐞, Cláude", "B와 B, B"),  # width, styled letters, accents
        ("\u0421l\u0430ude, Cl\u200baude, Cla\u00adude, C\ufefflaude, A\u200bG", "B, B, B, B, A"),
        ("Geminis, Claude's, MyClaudeBot, MYCLAUDEBOT", "A/Cs, B's, MyBBot, MYBBOT"),
        # A model id, a name with its model words after it: one letter, not one per word.
        ("claude-sonnet-4-5-20250929, Claude 3.5 Sonnet, gemini 2.5 pro", "B, B, A/C"),
        ("Gemini CLI와 Gemini", "C와 A/C"),  # the longest name first
        # A short name only as a whole word; a long one not inside a lower-case word.
        ("AGREE, agenda, tag, AG2, ag_x, ＡＧ!", "AGREE, agenda, tag, AG2, ag_x, A!"),
        ("philanthropic octopus, Sonnets", "philanthropic octopus, Bs"),
        ("ﬁne Claude, ㈜Claude", "ﬁne B, ㈜B"),  # characters that fold to two: only the name goes
        ("AG (AG)", "A"),  # a name beside its hidden persona
    ],
)
def test_anonymize_hides_every_spelling_of_a_name_and_only_it(text: str, hidden: str) -> None:
    assert anonymize(text, NAMES) == hidden


def test_anonymize_reads_each_letter_once() -> None:
    assert anonymize("Claude와 b", {"claude": "B", "b": "C"}) == "B와 C"
    assert anonymize("x", {}) == "x"


def test_peer_names_spell_the_makers_in_hangul_and_katakana() -> None:
    roster = (
        Participant(AG, Backend.AG_RELAY, "AG"),
        Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
        Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
    )
    debate = Debate(7, proposal(), Phase.PROPOSED, datetime.now(UTC), setup=Setup(2, roster=roster))
    seen = letters(debate)
    names = peer_names(debate, AG)
    assert names["클로드"] == names["クロード"] == names["claude"] == seen[CLAUDE]
    assert names["제미나이"] == names["gemini"] and names["앤트로픽"] == seen[CLAUDE]
