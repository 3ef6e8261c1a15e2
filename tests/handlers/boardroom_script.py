"""Replies of a three-member boardroom panel, in the seed's numbered layout (ko and pt-BR)."""

from __future__ import annotations

from handlers.core.model import AG, CLAUDE, GEMINI, Backend, Participant

PANEL = (
    Participant(AG, Backend.AG_RELAY, "AG", persona="architect"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude", persona="security reviewer"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini", persona="product owner"),
)

_LABELS = {
    "ko": ("투표", "최종 투표", {"yes": "찬성", "no": "반대", "conditional": "조건부"}),
    "pt-BR": ("VOTO", "VOTO FINAL", {"yes": "SIM", "no": "NÃO", "conditional": "CONDICIONAL"}),
    "en": ("VOTE", "FINAL VOTE", {"yes": "YES", "no": "NO", "conditional": "CONDITIONAL"}),
}


def position(who: str, vote: str, language: str = "ko") -> str:
    """A complete round-1 answer; `who` makes its text unique."""
    label, _, words = _LABELS[language]
    return (
        f"1. {label}: {words[vote]}\n"
        f"2. Argument of {who}: the main reasoning of {who}, several sentences long.\n"
        f"3. Risks\n- {who} risk one\n- {who} risk two\n"
        f"4. Conditions: works while {who}'s assumption holds; fails otherwise.\n"
        f"5. Metrics\n- {who} metric one\n- {who} metric two\n"
    )


def rebuttal(who: str, vote: str, language: str = "ko", why: str = "") -> str:
    """A complete round-2 answer."""
    _, label, words = _LABELS[language]
    return (
        f"1. {label}: {words[vote]}\n"
        f"2. {why or '-'}\n"
        f"3. Agreement of {who} with the others.\n"
        f"4. Disagreement of {who} with someone.\n"
        f"5. Insight of {who}.\n"
        f"6. Consensus condition of {who}.\n"
    )
