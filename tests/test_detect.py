"""Variant detection: GameType (standard, full specs, codes from the wild), --variant, inference."""

from __future__ import annotations

import pytest

from pdn.arbiter.detect import STANDARD, detect_dialect, detect_variant, infer_variant
from pdn.engine.variants import Variant
from pdn.pdnfile.reader import read_game


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
    assert "inferred international" in findings[-1][1]  # what the unusable code fell back to


def test_override_applies_only_without_a_usable_gametype() -> None:
    variant, findings = detected("1. 32-28 19-23 *", override="frisian")
    assert variant == "frisian"
    assert findings == [("info", "no usable GameType: frisian from --variant")]
    variant, findings = detected('[GameType "20"]\n1. 32-28 *', override="frisian")
    assert variant == "international"
    assert "--variant frisian ignored" in findings[0][1]


@pytest.mark.parametrize(
    ("text", "name", "severity", "evidence"),
    [
        ("1. 11-15 23-19 2. 8-11 22-17 *", "english", "info", "first move goes up"),
        ("1. 21-17 12-15 2. 23-19 11-14 3. 19x12 8x15 *", "italian", "info", "White moves first"),
        ('[Bianco "A"]\n[Nero "B"]\n1. 22-18 *', "italian", "info", "Italian tag names"),
        ("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *", "russian", "info", "russian plays the first 4"),
        ("1. c3:d4 f6:e5 *", "russian", "info", "':' captures"),
        ("1. cd4 fe5 *", "russian", "info", "short moves"),
        ("1. a2-a3 a7-a6 *", "turkish", "info", "light squares"),
        ('[Variant "American/English"]\n1. 11-15 *', "english", "info", "[Variant"),
        # thin evidence: nothing tells the 8x8 variants apart without moves
        ('[FEN "W:Wa1,c1:Bh8"]\n*', "russian", "warning", "no moves to tell it from brazilian"),
        ('[FEN "B:W18,24:B12,16"]\n*', "english", "warning", "squares up to 32; no moves"),
        # contradictory: every candidate stumbles
        ("1. 11-15 11-15 *", "english", "warning", "no candidate plays the moves without a fault"),
    ],
)
def test_inference_names_its_evidence(text: str, name: str, severity: str, evidence: str) -> None:
    variant, findings = detected(text)
    assert variant == name
    assert len(findings) == 1
    assert findings[0][0] == severity
    assert f"inferred {name}" in findings[0][1] and evidence in findings[0][1]


@pytest.mark.parametrize(
    "text",
    [
        "1. 32-28 19-23 2. 37-32 14-19 *",  # squares up to 50 ...
        "1. 33-29 17-21 2. 39-33 21-26 *",
        "1. 32-28 18-23 *",  # ... or low squares only International plays
        "*",  # no squares at all
        '[FEN "W:W31-50:B1-20"]\n*',
    ],
)
def test_international_is_pdns_default_and_needs_no_finding(text: str) -> None:
    assert detected(text) == ("international", [])


def test_czech_is_inferred_when_only_czech_plays_the_moves() -> None:
    # e5 could capture d4 backwards in Russian and Brazilian (a missed capture there); Czech
    # men capture forward only, so a1-b2 is legal only in Czech
    game = read_game('[FEN "W:We5,a1:Bd4,h8"]\n1. a1-b2 *')
    variant, reason = infer_variant(game)
    assert variant.name == "czech"
    assert "only czech plays the moves" in reason


# -- dialects -----------------------------------------------------------------------------------

PLAYSTRATEGY_TAGS = (
    '[Site "https://playstrategy.org/od5RMdnH"]\n[P1 "a"]\n[P2 "b"]\n[Variant "American/English"]\n'
)


@pytest.mark.parametrize(
    "tags",
    [
        PLAYSTRATEGY_TAGS,
        '[Site "https://playstrategy.org/x"]\n[Variant "American/English"]\n',  # the site alone
        '[P1 "a"]\n[P2 "b"]\n[Variant "American/English"]\n',  # its player tags alone
    ],
)
def test_playstrategy_english_export_is_read_rotated_with_split_captures(tags: str) -> None:
    game = read_game(tags + "1. c3-d4 *")
    variant, _ = detect_variant(game)
    dialect, findings = detect_dialect(game, variant)
    assert dialect.rotated and dialect.split_captures
    # Black (the first mover) is drawn at the bottom: c3-d4 is 11-15 on the PDN board
    assert dialect.move_text("c3-d4", variant.board) == "f6-e5"
    assert variant.board.parse_square("f6") == 11 and variant.board.parse_square("e5") == 15
    assert [(f.code, f.severity) for f in findings] == [("variant", "info")]
    assert "playstrategy" in findings[0].message and "rotated" in findings[0].message


def test_playstrategy_white_first_variants_are_not_rotated() -> None:
    # P1 is the first mover and is drawn at the bottom: for White-first variants that is PDN's
    # own board, only the jump-by-jump captures remain
    game = read_game('[Site "https://playstrategy.org/x"]\n[GameType "25"]\n1. c3-d4 *')
    variant, _ = detect_variant(game)
    dialect, _ = detect_dialect(game, variant)
    assert not dialect.rotated and dialect.split_captures
    assert dialect.move_text("c3-d4", variant.board) == "c3-d4"


@pytest.mark.parametrize(
    "text",
    [
        '[Variant "American/English"]\n1. 11-15 *',
        '[Site "lidraughts.org"]\n[White "a"]\n[Black "b"]\n[GameType "21"]\n1. 11-15 *',
        '[P1 "a"]\n[GameType "21"]\n1. 11-15 *',  # one player tag is no evidence
    ],
)
def test_standard_pdn_has_no_dialect(text: str) -> None:
    game = read_game(text)
    variant, _ = detect_variant(game)
    dialect, findings = detect_dialect(game, variant)
    assert dialect == STANDARD and findings == []
    assert dialect.move_text("c3-d4", variant.board) == "c3-d4"


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("brazilian-giveaway", "brazilian-giveaway"),  # tools/make_corpus.py, no GameType code
        ("Thai", "thai"),
        ("checkers", "english"),  # an alias is a name too
    ],
)
def test_variant_tag_naming_a_variant_is_an_info_not_a_guess(value: str, name: str) -> None:
    assert detected(f'[Variant "{value}"]\n*') == (
        name,
        [("info", f"no usable GameType: [Variant {value!r}] names {name}")],
    )


def test_variant_tag_guessed_from_a_word_stays_a_warning() -> None:
    variant, findings = detected('[Variant "Checkers (American rules)"]\n*')
    assert variant == "english" and [severity for severity, _ in findings] == ["warning"]


def test_squares_in_variations_count_as_evidence() -> None:
    # corpus wiegerw/pdn games__succeed__variation.pdn: the main line stays below square 33,
    # only a side line shows the 10x10 board (38-32)
    text = "32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23 *"
    assert detected(text) == ("international", [])
    # even when Italian plays the main line, a side line on square 38 is no 8x8 game
    assert detected("21-18 9-13 (9-13 38-32) *")[0] == "international"
    assert detected("21-18 9-13 (9-13 22-19) *")[0] == "italian"
