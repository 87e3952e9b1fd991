"""Perft against the published tables of RULES.md B§11 (numbers embedded; cross-checked with
../shared/perft.json when that file is present)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdn.engine.movegen import perft
from pdn.engine.position import Position
from pdn.engine.variants import Variant

SHARED_PERFT = Path(__file__).resolve().parents[1].parent / "shared" / "perft.json"

#: Initial positions: "drop" = unique moves (default), "keep" = every capture path. Depth 8
#: where keep and drop first differ on 8x8 (RULES.md B§11), else 7, or 6 where 7 is slow.
INITIAL: dict[str, dict[str, list[int]]] = {
    "international": {
        "drop": [9, 81, 658, 4265, 27117, 167140, 1049442],
        "keep": [9, 81, 658, 4265, 27117, 167140, 1049442],
    },
    "brazilian": {
        "drop": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
        "keep": [7, 49, 302, 1469, 7473, 37628, 187302, 907836],
    },
    "russian": {
        "drop": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
        "keep": [7, 49, 302, 1469, 7482, 37986, 190146, 929905],
    },
    "pool": {
        "drop": [7, 49, 302, 1469, 7482, 37986, 190146, 929896],
        "keep": [7, 49, 302, 1469, 7482, 37986, 190146, 929902],
    },
    "english": {
        "drop": [7, 49, 302, 1469, 7361, 36768, 179740],
        "keep": [7, 49, 302, 1469, 7361, 36768, 179740],
    },
    "portuguese": {
        "drop": [7, 49, 302, 1469, 7361, 36473, 177532],
        "keep": [7, 49, 302, 1469, 7361, 36473, 177532],
    },
    "spanish": {
        "drop": [7, 49, 302, 1469, 7361, 36473, 177532],
        "keep": [7, 49, 302, 1469, 7361, 36473, 177532],
    },
    "italian": {
        "drop": [7, 49, 302, 1469, 7361, 36473, 177532],
        "keep": [7, 49, 302, 1469, 7361, 36473, 177532],
    },
    "czech": {
        "drop": [7, 49, 302, 1469, 7361, 36768, 179740],
        "keep": [7, 49, 302, 1469, 7361, 36768, 179740],
    },
    "frisian": {
        "drop": [9, 81, 658, 3874, 21265, 102431],
        "keep": [9, 81, 658, 3880, 21345, 103584],
    },
    # single source (the kish crate). At d7 kish has 10,782,382, we 10,782,308: kish counts
    # each stop square of a king going straight on between two captures as its own path
    # (recounting our d7 tree that way gives exactly 10,782,382); see test_rule_positions.
    "turkish": {
        "drop": [8, 64, 708, 7538, 85090, 931312],
        "keep": [8, 64, 708, 7538, 85090, 931312],
    },
}

#: Giveaway forms move exactly like their base variant (RULES.md B§8).
GIVEAWAY_DEPTH = 6
GIVEAWAY_BASE = {
    "international-giveaway": "international",
    "brazilian-giveaway": "brazilian",
    "russian-giveaway": "russian",
}

#: RULES.md B§11.2 test positions: (name, variant, policy, FEN, first counts).
POSITIONS: list[tuple[str, str, str, str, list[int]]] = [
    (
        "Random178",
        "international",
        "drop",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        [14, 55, 1168, 5432],
    ),
    (
        "Woldouby",
        "international",
        "drop",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        [6, 12, 30, 73, 215, 590],
    ),
    (
        "AllKings",
        "international",
        "drop",
        "W:W"
        + ",".join(f"K{square}" for square in range(31, 51))
        + ":B"
        + ",".join(f"K{square}" for square in range(1, 21)),
        [17, 79, 352, 1399],
    ),
    (
        "AlmostPromotion",
        "international",
        "drop",
        "W:W6,7,8,9,10:B41,42,43,44,45",
        [9, 81, 795, 7578],
    ),
    (
        "FrontRows",
        "international",
        "keep",
        "W:B16,17,18,19,20:W31,32,33,34,35",
        [9, 81, 534, 2538, 9052],
    ),
    (
        "Gilbert1",
        "italian",
        "keep",
        "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
        [5, 13, 42, 107, 360],
    ),
    ("Gilbert2", "italian", "keep", "B:W30,21,22,17,20,K6:B25,28,9,5,1,3", [6, 47, 271, 1916]),
    (
        "Gilbert3",
        "italian",
        "keep",
        "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
        [13, 112, 828, 6756],
    ),
]


def expected_drop(name: str) -> list[int]:
    """The drop row of ``name`` (a giveaway form: its base variant's, to GIVEAWAY_DEPTH)."""
    if name in GIVEAWAY_BASE:
        return INITIAL[GIVEAWAY_BASE[name]]["drop"][:GIVEAWAY_DEPTH]
    return INITIAL[name]["drop"]


@pytest.mark.parametrize("name", [*INITIAL, *GIVEAWAY_BASE])
def test_initial_position_drop_duplicates(name: str) -> None:
    expected = expected_drop(name)
    position = Position.initial(Variant.from_name(name))
    assert perft(position, len(expected)) == expected


@pytest.mark.parametrize("name", INITIAL)
def test_initial_position_keep_duplicates(name: str) -> None:
    expected = INITIAL[name]["keep"]
    position = Position.initial(Variant.from_name(name))
    assert perft(position, len(expected), keep_duplicates=True) == expected


@pytest.mark.parametrize(
    ("variant", "policy", "fen", "expected"),
    [pytest.param(*row[1:], id=row[0]) for row in POSITIONS],
)
def test_published_positions(variant: str, policy: str, fen: str, expected: list[int]) -> None:
    position = Position.from_fen(fen, Variant.from_name(variant))
    assert perft(position, len(expected), keep_duplicates=policy == "keep") == expected


def test_circular_king_capture_counts_differ_by_policy() -> None:
    """RULES.md T13: the two loops back to 38 are two paths but one move."""
    position = Position.from_fen("W:WK38:B18,19,32,33", Variant.from_name("international"))
    assert perft(position, 1, keep_duplicates=True) == [6]
    assert perft(position, 1) == [5]


@pytest.mark.skipif(not SHARED_PERFT.exists(), reason="../shared/perft.json not present")
def test_embedded_numbers_match_shared_table() -> None:
    shared = json.loads(SHARED_PERFT.read_text(encoding="utf-8"))
    for name, rows in INITIAL.items():
        for policy, counts in rows.items():
            assert shared["initial"][name][policy][: len(counts)] == counts, (name, policy)
    for name, base in GIVEAWAY_BASE.items():
        assert shared["initial"][name]["same_as"] == base
    published = {row["name"]: row for row in shared["positions"]}
    for name, variant, policy, fen, counts in POSITIONS:
        row = published[name]
        assert (row["variant"], row["policy"], row["fen"]) == (variant, policy, fen)
        assert row["nodes"][: len(counts)] == counts
