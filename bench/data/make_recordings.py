"""Write the benchmark's recorded inputs (deterministic: the same files on every run).

- `debate_40_turns.jsonl`: a 40-turn debate on the cache-layer question, two debaters, replies
  of 1,500-3,000 characters in the debaters' contract (a ```json block), Korean and English
  rounds alternating. The text is assembled from a pool of argument sentences, so its size and
  shape are those of a real debate; its wording repeats more than a real one would.
- `busy_channel.jsonl`: 1,000 messages of a busy team channel over three hours: eight people
  chatting (mostly small talk, four stretches of a real open decision) and two bots posting.
- `busy_channel_marks.json`: what a person reading that channel would mark in it: each open
  decision's stretch (its first and last message, 0-based line numbers of the .jsonl), and a
  few clear non-decisions (bot notices that use decision words, a stretch of small talk).
  Everything outside an open decision's stretch is no open decision (the bench reads it so).

Run: .venv/bin/python bench/data/make_recordings.py [--out FOLDER]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

KO_ARGUMENTS = [
    "멀티 인스턴스 배포에서는 인스턴스마다 캐시가 달라져 사용자가 오래된 값을 볼 수 있습니다.",
    "Redis를 도입하면 네트워크 왕복이 추가되어 p99 지연 시간이 1~2ms 늘어납니다.",
    "in-process LRU는 운영 부담이 거의 없고 장애 지점도 늘지 않습니다.",
    "세션 데이터처럼 인스턴스 간에 공유해야 하는 값은 LRU로는 해결되지 않습니다.",
    "지금 트래픽은 초당 300 요청 수준이라 단일 인스턴스로도 충분합니다.",
    "하지만 다음 분기 마케팅 캠페인 이후 트래픽이 세 배로 늘 것이라는 예측이 있습니다.",
    "Redis 클러스터를 운영할 사람이 팀에 없다는 점은 큰 위험입니다.",
    "관리형 Redis를 쓰면 운영 부담은 줄지만 월 비용이 약 40만 원 늘어납니다.",
    "캐시 무효화 전략을 먼저 정하지 않으면 어느 쪽을 택해도 같은 문제가 반복됩니다.",
    "쓰기 후 읽기 일관성이 필요한 화면은 캐시를 우회하도록 설계할 수 있습니다.",
    "LRU의 적중률은 메모리 상한에 크게 좌우되며, 현재 설정으로는 70% 정도로 추정됩니다.",
    "Redis를 쓰면 캐시 워밍이 배포와 무관해져 배포 직후의 지연 급증이 사라집니다.",
    "두 방식을 섞어 L1은 LRU, L2는 Redis로 두는 계층형 구성도 가능합니다.",
    "계층형 구성은 무효화를 두 번 해야 하므로 복잡도가 크게 늘어납니다.",
    "측정 없이 결정하기보다 2주간 적중률과 지연 시간을 기록해 보는 것이 좋겠습니다.",
    "인스턴스가 세 개를 넘는 시점을 전환 기준으로 삼자는 제안에 부분적으로 동의합니다.",
    "다만 전환 기준은 인스턴스 수보다 교차 인스턴스 불일치 건수로 정하는 편이 정확합니다.",
    "장애 시나리오에서 Redis가 내려가면 모든 요청이 DB로 몰리는 문제가 있습니다.",
    "서킷 브레이커와 짧은 TTL을 함께 쓰면 그 위험을 상당 부분 줄일 수 있습니다.",
    "앞선 의견의 비용 계산에는 데이터 전송 요금이 빠져 있어 보완이 필요합니다.",
]
EN_ARGUMENTS = [
    "With several instances, each keeps its own cache, so users may read stale values.",
    "Adding Redis puts a network round trip on every read, roughly 1-2 ms at p99.",
    "An in-process LRU costs almost nothing to operate and adds no failure point.",
    "Values that must be shared across instances, such as sessions, cannot live in an LRU.",
    "Current traffic is about 300 requests per second, which one instance handles easily.",
    "The forecast after next quarter's campaign, however, is three times that load.",
    "Nobody on the team has run a Redis cluster in production, which is a real risk.",
    "A managed Redis removes most of that burden but adds about 300 dollars a month.",
    "Without an invalidation strategy, either choice will repeat the same bugs.",
    "Screens that need read-after-write consistency can bypass the cache by design.",
    "The LRU hit rate depends on its memory cap; with the current setting it is near 70%.",
    "With Redis, cache warming no longer depends on deploys, so post-deploy spikes disappear.",
    "A tiered design is possible: an LRU as L1 in front of Redis as L2.",
    "A tiered design means invalidating twice, which adds real complexity.",
    "Rather than deciding blind, we could record hit rates and latency for two weeks.",
    "I partly agree with switching once we run more than three instances.",
    "The switch should be triggered by cross-instance inconsistencies, not instance count.",
    "If Redis goes down, every request falls through to the database at once.",
    "A circuit breaker with short TTLs removes much of that risk.",
    "The cost estimate above leaves out data transfer charges and needs correcting.",
]
KO_OPENERS = [
    "앞선 의견을 검토했습니다.",
    "상대의 주장에서 몇 가지를 확인했습니다.",
    "지적에 답하겠습니다.",
]
EN_OPENERS = [
    "I checked the previous reply.",
    "Taking the points above in turn.",
    "To answer that:",
]
KO_QUESTIONS = [
    "현재 교차 인스턴스 불일치가 하루에 몇 건인지 아시나요?",
    "관리형 Redis 예산이 승인될 수 있나요?",
]
EN_QUESTIONS = [
    "How many cross-instance inconsistencies do we see per day?",
    "Is there budget for managed Redis?",
]


def _opinion(rng: random.Random, korean: bool, length: int) -> str:
    pool, openers = (KO_ARGUMENTS, KO_OPENERS) if korean else (EN_ARGUMENTS, EN_OPENERS)
    paragraphs = [rng.choice(openers)]
    text = paragraphs[0]
    while len(text) < length:
        paragraph = " ".join(rng.sample(pool, rng.randint(2, 4)))
        paragraphs.append(paragraph)
        text = "\n\n".join(paragraphs)
    return text[:length].rstrip()


def debate(rng: random.Random) -> list[dict[str, object]]:
    """Forty turns; stances move from disagree to agree only at the very end."""
    turns = []
    for number in range(1, 41):
        seat = "ag" if number % 2 else "claude"
        korean = ((number - 1) // 2) % 2 == 0  # rounds alternate: Korean, English, ...
        target = rng.randint(1500, 3000)
        stance = "agree" if number >= 39 else ("partial" if number > 20 else "disagree")
        block: dict[str, object] = {"stance": stance}
        if number % 7 == 0:
            questions = KO_QUESTIONS if korean else EN_QUESTIONS
            block["question"] = {"to": "opponent", "text": rng.choice(questions)}
        overhead = len(json.dumps({**block, "opinion": ""}, ensure_ascii=False)) + 12
        opinion = _opinion(rng, korean, target - overhead)
        text = "```json\n" + json.dumps({"opinion": opinion, **block}, ensure_ascii=False) + "\n```"
        turns.append(
            {"turn": number, "seat": seat, "language": "ko" if korean else "en", "text": text}
        )
    return turns


SMALL_TALK = [
    "점심 뭐 먹을까요",
    "ㅋㅋㅋㅋ",
    "오늘 날씨 좋네요",
    "커피 마실 사람?",
    "nice",
    "ok 👍",
    "회의 5분 늦어요",
    "PR 리뷰 부탁드려요",
    "빌드 다시 돌렸어요",
    "lgtm",
    "thanks!",
    "anyone seen the new dashboard?",
    "brb",
    "배포 끝났습니다",
    "주말 잘 보내세요",
    "the coffee machine is broken again",
    "문서 링크 공유드려요",
    "ㅎㅎ 감사합니다",
    "standup notes are in the doc",
    "오늘 야근각이네요",
    "who broke main? 😅",
    "고쳤어요",
]
DECISIONS = [
    [
        "다음 분기 DB를 Postgres로 갈지 SQLite로 버틸지 정해야 해요",
        "SQLite면 운영은 편한데 동시 쓰기가 걱정이에요. 어느 쪽이 나을까요",
        "Postgres vs SQLite, should we decide this week?",
        "장단점이 확실히 갈려서 애매하네요. 결정이 필요합니다",
        "I'm not sure which one is better for our write load",
    ],
    [
        "REST 대신 gRPC로 갈지 고민이에요",
        "gRPC면 타입은 좋은데 브라우저 지원이 애매해요",
        "should we choose REST for the public API and gRPC inside?",
        "trade-off가 커서 논의가 더 필요할 것 같아요. 어느 쪽을 선택할지",
    ],
    [
        "모노레포로 합칠지 말지 결정해야 할 시점인 것 같아요",
        "빌드 시간 생각하면 반대예요. 근데 의존성 관리는 편하죠",
        "pros and cons are pretty balanced, let's debate it properly",
        "저는 찬성이에요. 다만 CI 캐시 전략을 먼저 정하고요",
    ],
    [
        "배포 주기를 주 1회로 할지 매일로 할지 정합시다",
        "매일 배포는 좋은데 QA 인력이 부족해서 고민이에요",
        "I'd prefer daily deploys instead of weekly batches",
        "I disagree, weekly is safer until we have better tests. 결정이 필요해요",
    ],
]
BOT_LINES = [
    "✅ CI passed on main (decision: deploy? should we deploy — see pipeline)",
    "❌ CI failed: tests/test_api.py — should we retry? choose an option",
    "🎵 Now playing: lo-fi beats",
    "📦 Release v1.4.2 drafted. Decide: publish or discard?",
]


def busy_channel(rng: random.Random) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """1,000 messages over three hours: small talk, four decision stretches, bot posts; and
    the marks of the open decisions and of a few clear non-decisions."""
    people = [
        (100 + n, name)
        for n, name in enumerate(
            ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
        )
    ]
    bots = [(900, "ci-bot"), (901, "music-bot")]
    starts = sorted(rng.sample(range(50, 950), 4))
    messages: list[dict[str, object]] = []
    stretch: list[str] = []
    spans: list[list[int]] = []  # per open decision: its first and last message
    t = 0.0
    for n in range(1000):
        t += rng.expovariate(1 / 10.8)  # about 10.8 s apart: 1,000 messages in three hours
        if n in starts:
            stretch = list(DECISIONS[starts.index(n)]) * 3
            spans.append([])
        if rng.random() < 0.08:
            author_id, name = rng.choice(bots)
            messages.append(
                {
                    "t": round(t, 1),
                    "author": author_id,
                    "name": name,
                    "bot": True,
                    "text": rng.choice(BOT_LINES),
                }
            )
            continue
        author_id, name = rng.choice(people)
        decided = bool(stretch) and rng.random() < 0.7
        text = stretch.pop(0) if decided else rng.choice(SMALL_TALK)
        if decided:  # the stretch runs from its first line to its last
            spans[-1] = [spans[-1][0] if spans[-1] else len(messages), len(messages)]
        messages.append(
            {"t": round(t, 1), "author": author_id, "name": name, "bot": False, "text": text}
        )
    return messages, _marks(messages, spans)


def _marks(messages: list[dict[str, object]], spans: list[list[int]]) -> list[dict[str, object]]:
    """The open decisions' stretches, then the clear non-decisions: every bot notice that uses
    decision words, and the first 40 messages (small talk before any decision)."""
    marks: list[dict[str, object]] = [
        {"kind": "open", "topic": DECISIONS[n][0], "first": span[0], "last": span[-1]}
        for n, span in enumerate(spans)
    ]
    wordy = ("should we", "decide", "decision", "choose")
    marks += [
        {"kind": "not", "why": "a bot's notice", "first": i, "last": i}
        for i, m in enumerate(messages)
        if m["bot"] and any(w in str(m["text"]).lower() for w in wordy)
    ]
    if all(span[0] >= 40 for span in spans):
        marks.append({"kind": "not", "why": "small talk", "first": 0, "last": 39})
    return marks


def main() -> None:
    """Write both files (into bench/data/, or the folder given with --out)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="the folder to write them in")
    folder = parser.parse_args().out
    rng = random.Random(20261130)
    with (folder / "debate_40_turns.jsonl").open("w", encoding="utf-8") as out:
        for record in debate(rng):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    messages, marks = busy_channel(rng)
    with (folder / "busy_channel.jsonl").open("w", encoding="utf-8") as out:
        for record in messages:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    with (folder / "busy_channel_marks.json").open("w", encoding="utf-8") as out:
        out.write(json.dumps(marks, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
