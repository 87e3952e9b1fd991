"""Variant detection: GameType (standard, full specs, codes from the wild), --variant, inference."""

from __future__ import annotations

import pytest

from pdn.detect import detect_variant, infer_variant
from pdn.reader import read_game
from pdn.variants import Variant


def detected(text: str, override: str | None = None) -> tuple[str, list[tuple[str, str]]]:
    game = read_game(text)
    variant, findings = detect_variant(game, Variant.from_name(override) if override else None)
    return variant.name, [(finding.severity or "", finding.message) for finding in findings]


@pytest.mark.parametrize(
    ("gametype", "name"),
    [
        ("20", "international"),
        ("20,W,10,10,N2,0", "international"),
        ("21", "english"),
        ("22", "italian"),
        ("25", "russian"),
        ("26", "brazilian"),
        ("29", "czech"),
        ("40", "frisian"),
    ],
)
def test_standard_gametype_needs_no_finding(gametype: str, name: str) -> None:
    assert detected(f'[GameType "{gametype}"]\n*') == (name, [])


@pytest.mark.parametrize(
    ("gametype", "name"),
    [
        ("20,W,10,10,N1,0", "international"),  # PlayOK
        ("25,W,8,8,A1,0", "russian"),  # several Python projects
        ("96", "international"),  # lidraughts Breakthrough
        ("97", "frisian"),  # lidraughts Frysk!
        ("98", "international-giveaway"),  # lidraughts Antidraughts
    ],
)
def test_non_standard_gametype_is_used_with_an_info_note(gametype: str, name: str) -> None:
    variant, findings = detected(f'[GameType "{gametype}"]\n*')
    assert variant == name
    assert [severity for severity, _ in findings] == ["info"]
    assert gametype in findings[0][1]


def test_unusable_gametype_falls_back_to_inference_with_a_warning() -> None:
    variant, findings = detected('[GameType "0"]\n1. 32-28 19-23 2. 37-32 *')
    assert variant == "international"
    assert findings[0][0] == "warning" and "'0'" in findings[0][1]
    assert "inferred international" in findings[-1][1]


def test_override_applies_only_without_a_usable_gametype() -> None:
    variant, findings = detected("1. 32-28 19-23 *", override="frisian")
    assert variant == "frisian"
    assert findings == [("info", "no usable GameType: frisian from --variant")]
    variant, findings = detected('[GameType "20"]\n1. 32-28 *', override="frisian")
    assert variant == "international"
    assert "--variant frisian ignored" in findings[0][1]


@pytest.mark.parametrize(
    ("text", "name", "evidence"),
    [
        ("1. 32-28 19-23 2. 37-32 14-19 *", "international", "10x10"),  # squares up to 50 ...
        ("1. 33-29 17-21 2. 39-33 21-26 *", "international", "10x10"),
        ("1. 32-28 18-23 *", "international", "only international"),  # ... or low squares
        ("1. 11-15 23-19 2. 8-11 22-17 *", "english", "first move goes up"),
        ("1. 21-17 12-15 2. 23-19 11-14 3. 19x12 8x15 *", "italian", "White moves first"),
        ('[Bianco "A"]\n[Nero "B"]\n1. 22-18 *', "italian", "Italian tag names"),
        ("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *", "russian", "algebraic"),
        ("1. c3:d4 f6:e5 *", "russian", "':' captures"),
        ("1. cd4 fe5 *", "russian", "short moves"),
        ("1. a2-a3 a7-a6 *", "turkish", "light squares"),
        ('[Variant "American/English"]\n1. 11-15 *', "english", "[Variant"),
        ('[FEN "W:Wa1,c1:Bh8"]\n*', "russian", "algebraic"),
        ('[FEN "B:W18,24:B12,16"]\n*', "english", "squares up to 32"),
        ("*", "international", "no squares"),
    ],
)
def test_inference_names_its_evidence(text: str, name: str, evidence: str) -> None:
    variant, findings = detected(text)
    assert variant == name
    assert len(findings) == 1
    severity, message = findings[0]
    assert severity == "warning"
    assert f"inferred {name}" in message and evidence in message


def test_czech_is_inferred_when_only_czech_plays_the_moves() -> None:
    # e5 could capture d4 backwards in Russian and Brazilian (a missed capture there); Czech
    # men capture forward only, so a1-b2 is legal only in Czech
    game = read_game('[FEN "W:We5,a1:Bd4,h8"]\n1. a1-b2 *')
    variant, reason = infer_variant(game)
    assert variant.name == "czech"
    assert "only czech plays the moves" in reason
