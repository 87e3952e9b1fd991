"""Draw-rule profiles and the tracker: exact counting, resets and repetition."""

from __future__ import annotations

import pytest

from pdn.engine.drawrules import (
    PROFILES,
    DrawEvent,
    DrawTracker,
    long_diagonal,
    profile_for,
    profile_named,
)
from pdn.engine.movegen import Move
from pdn.engine.position import Position
from pdn.engine.variants import VARIANTS, Variant


def tracker_at(variant: str, fen: str, profile: str | None = None) -> tuple[DrawTracker, Position]:
    position = Position.from_fen(fen, Variant.from_name(variant))
    return DrawTracker.start(profile_for(position.variant, profile), position), position


def step(
    position: Position, path: tuple[int, ...], captures: tuple[int, ...] = ()
) -> tuple[Position, Move]:
    move = Move(path, captures)
    return position.play(move), move


def shuffle(
    tracker: DrawTracker,
    position: Position,
    white: tuple[int, int],
    black: tuple[int, int],
    plies: int,
) -> tuple[Position, list[DrawEvent]]:
    """Move one white and one black piece back and forth between two squares each."""
    events: list[DrawEvent] = []
    squares = {"W": list(white), "B": list(black)}
    for _ in range(plies):
        mover = position.turn
        here, there = squares[mover]
        position, move = step(position, (here, there))
        squares[mover] = [there, here]
        events += tracker.push(position, move)
    return position, events


def limits(events: list[DrawEvent]) -> list[tuple[str, int]]:
    return [(event.rule, event.ply) for event in events if event.kind == "move-limit"]


def repetitions(events: list[DrawEvent]) -> list[int]:
    return [event.ply for event in events if event.kind == "repetition"]


def test_every_variant_has_a_profile_and_unknown_names_are_refused() -> None:
    for variant in VARIANTS.values():
        assert profile_for(variant).name == variant.draw_profile  # no silent fallback
    assert profile_for(VARIANTS["brazilian"]).name == "cbjd"
    assert profile_for(VARIANTS["international-giveaway"]).quiet == ()
    assert profile_for(VARIANTS["brazilian"], "damplay").name == "damplay"
    with pytest.raises(ValueError, match="cbjd"):
        profile_named("no-such-profile")


def test_long_diagonal_of_square_boards() -> None:
    international = long_diagonal(VARIANTS["international"])
    assert international == frozenset({46, 41, 37, 32, 28, 23, 19, 14, 10, 5})
    russian = long_diagonal(VARIANTS["russian"])
    board = VARIANTS["russian"].board
    assert {board.to_algebraic(square) for square in russian} == {
        "a1",
        "b2",
        "c3",
        "d4",
        "e5",
        "f6",
        "g7",
        "h8",
    }
    assert len(long_diagonal(VARIANTS["italian"])) == 8


def test_repetition_fires_at_the_third_occurrence_same_side_to_move() -> None:
    tracker, position = tracker_at("international", "W:WK46,30:BK5,21")
    _, events = shuffle(tracker, position, (46, 37), (5, 14), 12)
    # start = 1st, after ply 4 = 2nd, after ply 8 = 3rd; reported once
    assert repetitions(events) == [8]


def test_italian_repetition_limit_is_the_fourth_occurrence() -> None:
    tracker, position = tracker_at("italian", "W:WK29,22:BK4,11")
    _, events = shuffle(tracker, position, (29, 25), (4, 8), 16)
    assert repetitions(events) == [12]


def test_man_move_forgets_earlier_positions() -> None:
    tracker, position = tracker_at("international", "W:WK46,30:BK5,21")
    position, events = shuffle(tracker, position, (46, 37), (5, 14), 4)  # start seen twice
    position, move = step(position, (30, 24))
    events += tracker.push(position, move)
    assert tracker.seen == {position.key(): 1}
    assert repetitions(events) == []


def test_fmjd_25_move_rule_counts_50_plies_and_resets_on_a_man_move() -> None:
    tracker, position = tracker_at("international", "W:WK46,30:BK5,21")
    position, events = shuffle(tracker, position, (46, 37), (5, 14), 49)
    assert limits(events) == []
    # Black (to move after 49 plies) moves a man: the count starts again
    position, move = step(position, (21, 26))
    events += tracker.push(position, move)
    position, more = shuffle(tracker, position, (37, 46), (5, 14), 50)
    assert limits(more) == [("FMJD 6.2", 100)]


def test_fmjd_16_move_rule_then_a_capture_restarts_a_5_move_count() -> None:
    # RULES.md §12: W:WK46,K47,K48:BK3 - 3 kings v 1: the 16-move count starts at once
    tracker, position = tracker_at("international", "W:WK46,K47,K48:BK3")
    position, events = shuffle(tracker, position, (46, 41), (3, 9), 24)
    assert limits(events) == []
    # Black's 13th move captures a king: 2 kings v 1, a fresh 5-move count from ply 26
    position, move = step(position, (46, 41))
    events += tracker.push(position, move)
    position = Position.from_fen("W:WK47,K41:BK36", position.variant)
    events += tracker.push(position, Move((9, 36), (31,)))  # shape of a capture, lands on 36
    position, events_after = shuffle(tracker, position, (47, 42), (36, 31), 12)
    assert limits(events + events_after) == [("FMJD 6.4", 36)]


def test_fmjd_16_move_rule_expires_after_32_plies() -> None:
    tracker, position = tracker_at("international", "W:WK46,K47,K48:BK3")
    _, events = shuffle(tracker, position, (46, 41), (3, 9), 40)
    assert limits(events) == [("FMJD 6.3", 32)]


def test_fmjd64_three_kings_counts_the_strong_sides_moves() -> None:
    # 7.2.4: the strong side's 15th move; White (strong) moves at plies 1, 3, ..., 29
    tracker, position = tracker_at("russian", "W:WKa1,Kc1,Ke1:BKh2")
    board = position.variant.board
    a1, b2, h2, g1 = (board.parse_square(name) for name in ("a1", "b2", "h2", "g1"))
    _, events = shuffle(tracker, position, (a1, b2), (h2, g1), 40)
    assert ("FMJD-64 7.2.4", 29) in limits(events)


def test_fmjd64_lone_king_on_the_long_diagonal_gives_5_strong_moves() -> None:
    # 7.2.7: 3 pieces v a lone king on a1-h8; the lone king moves along it (stays on it)
    tracker, position = tracker_at("russian", "W:WKa3,Kc1,Ke1:BKh8")
    board = position.variant.board
    a3, b4, h8, g7 = (board.parse_square(name) for name in ("a3", "b4", "h8", "g7"))
    _, events = shuffle(tracker, position, (a3, b4), (h8, g7), 12)
    assert limits(events)[0] == ("FMJD-64 7.2.7", 9)


def test_english_40_move_rule_is_80_plies() -> None:
    tracker, position = tracker_at("english", "B:WK29,21:BK4,12")
    _, events = shuffle(tracker, position, (29, 25), (4, 8), 90)
    assert limits(events) == [("40-move", 80)]


def test_cbjd_and_damplay_differ_in_the_king_move_limit() -> None:
    fen = "W:WKa1,Kc1,e3,g3:BKh8,Kf8,b6,d6"
    for profile, expected in (("cbjd", 40), ("damplay", 50), ("fmjd64", 30)):
        tracker, position = tracker_at("brazilian", fen, profile)
        board = position.variant.board
        a1, b2, h8, g7 = (board.parse_square(name) for name in ("a1", "b2", "h8", "g7"))
        _, events = shuffle(tracker, position, (a1, b2), (h8, g7), 60)
        assert limits(events)[0][1] == expected, profile


def test_giveaway_has_repetition_only() -> None:
    tracker, position = tracker_at("international-giveaway", "W:WK46,K47,K48:BK3")
    _, events = shuffle(tracker, position, (46, 41), (3, 9), 120)
    assert limits(events) == []
    assert repetitions(events) == [8]


def test_copy_is_independent() -> None:
    tracker, position = tracker_at("international", "W:WK46,30:BK5,21")
    twin = tracker.copy()
    shuffle(tracker, position, (46, 37), (5, 14), 8)
    assert twin.ply == 0 and len(twin.seen) == 1 and tracker.ply == 8


def test_repetition_ends_the_game_only_where_the_rules_say_so() -> None:
    automatic = {name for name, profile in PROFILES.items() if profile.repetition_automatic}
    # FMJD 6.1 ("is considered a draw") and FMJD-64 7.2.3 (Russian, and Brazil's numbering);
    # English laws and the FPD text make it a claim; elsewhere no text says automatic
    assert automatic == {"fmjd", "fmjd64", "cbjd", "damplay"}
    assert all(profile.repetition_source for profile in PROFILES.values())
    assert "claim" in PROFILES["english"].repetition_source
    assert "claim" in PROFILES["portuguese"].repetition_source


def test_thai_names_its_fallback_profile() -> None:
    thai = profile_for(VARIANTS["thai"])
    assert thai.name == "thai"
    assert "no source" in thai.description
    assert (thai.repetition, thai.quiet, thai.endings) == (3, (), ())


# -- seed 003 (DamPlay): one profile, rules per board ----------------------------------------
#: Seed 003's table, per board: (rule, forces as (strong, weak), moves each, diagonal).
SEED_003 = {
    32: {  # 64 squares
        ("3K v K diagonal", (((0, 3), (0, 1)),), 5, "weak"),
        ("3K v K", (((0, 3), (0, 1)),), 20, "strong"),
    },
    50: {  # 100 squares
        ("3K v K", (((0, 3), (0, 1)),), 15, None),
    },
}
SMALL_ENDINGS = {
    ((0, 1), (0, 1)),  # 1 dama x 1 dama
    ((0, 2), (0, 1)),  # 2 damas x 1 dama
    ((0, 2), (0, 2)),  # 2 damas x 2 damas
    ((0, 2), (1, 1)),  # 2 damas x 1 dama e 1 pedra
    ((1, 1), (1, 1)),  # 1 dama e 1 pedra x 1 dama e 1 pedra
    ((1, 1), (0, 1)),  # 1 dama x 1 dama e 1 pedra
}


@pytest.mark.parametrize("name", ["damplay", "cbjd"])
@pytest.mark.parametrize("variant", ["brazilian", "international"])
def test_brazilian_profiles_hold_seed_003_per_board(name: str, variant: str) -> None:
    from pdn.engine.drawrules import profile_for

    board = Variant.from_name(variant).board
    profile = profile_for(Variant.from_name(variant), name)
    assert profile.name == name  # findings name the profile the user chose
    rules = {
        (rule.name.removeprefix(f"{name} "), tuple(sorted(rule.forces)), rule.moves, rule.diagonal)
        for rule in profile.endings
        if rule.forces != frozenset(SMALL_ENDINGS)
    }
    assert rules == SEED_003[len(board)]
    small = [rule for rule in profile.endings if rule.forces == frozenset(SMALL_ENDINGS)]
    assert [rule.moves for rule in small] == [5]  # the same 5-move small endings on both boards
    king_moves = {"damplay": 25, "cbjd": 20}[name]
    assert [rule.plies for rule in profile.quiet] == [2 * king_moves]


def _quiet_walk(variant: str, rules: str, fen: str) -> tuple[int, list[str]] | None:
    """Play king moves that neither repeat nor allow a capture until a rule expires."""
    from pdn.engine.drawrules import DrawTracker, profile_for

    rules_of = Variant.from_name(variant)
    position = Position.from_fen(fen, rules_of)
    tracker = DrawTracker.start(profile_for(rules_of, rules), position)
    seen = {position.key()}
    for ply in range(1, 80):
        for move in position.legal_moves:
            after = position.play(move)
            if move.is_capture or after.key() in seen:
                continue
            if not any(reply.is_capture for reply in after.legal_moves):
                break
        else:
            return None
        events = tracker.push(after, move)
        position = after
        seen.add(after.key())
        if events:
            return ply, [event.rule for event in events]
    return None


def test_damplay_on_100_squares_draws_3_kings_v_king_after_15_moves_each() -> None:
    assert _quiet_walk("international", "damplay", "W:WK1,K2,K3:BK46") == (30, ["damplay 3K v K"])
    assert _quiet_walk("international", "cbjd", "W:WK1,K2,K3:BK46") == (30, ["cbjd 3K v K"])
    small = _quiet_walk("international", "damplay", "W:WK1,K2:BK46")
    assert small == (10, ["damplay small endings"])
