"""API misuse gets a clear TypeError/ValueError, or the obvious meaning (issue 9)."""

from __future__ import annotations

import io

import pytest

from pdn import Position, Variant
from pdn.pdnfile.reader import read_game, read_games
from pdn.pdnfile.writer import write_game

PDN = '[Event "a"]\n1. 32-28 19-23 2-0\n'


def test_read_games_takes_bytes_as_a_file() -> None:
    games = list(read_games(PDN.encode() * 2))
    assert [game.tags for game in games] == [[("Event", "a")]] * 2


def test_read_game_takes_bytes_decoded_like_a_file() -> None:
    assert read_game('[Event "Café"]\n1. 32-28 *\n'.encode("cp1252")).tags == [("Event", "Café")]
    assert read_game(PDN.encode()).tags == read_game(PDN).tags


def test_read_games_refuses_pdn_text_taken_for_a_path() -> None:
    with pytest.raises(ValueError, match=r"looks like PDN text: use read_game"):
        read_games(PDN)


@pytest.mark.parametrize("bad", [None, 42, ["x.pdn"]])
def test_read_games_and_read_game_refuse_other_objects(bad: object) -> None:
    with pytest.raises(TypeError, match="read_games takes a path"):
        read_games(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="read_game takes PDN text"):
        read_game(bad)  # type: ignore[arg-type]


def test_read_games_still_takes_streams_and_paths(tmp_path: object) -> None:
    assert len(list(read_games(io.StringIO(PDN)))) == 1


def test_position_from_fen_takes_a_variant_name() -> None:
    by_name = Position.from_fen("W:W31:B19", "international")
    assert by_name == Position.from_fen("W:W31:B19", Variant.from_name("international"))
    assert Position.initial("russian") == Position.initial(Variant.from_name("russian"))
    with pytest.raises(ValueError, match="unknown variant"):
        Position.from_fen("W:W31:B19", "internationale")
    with pytest.raises(TypeError, match="expected a Variant or a variant name"):
        Position.from_fen("W:W31:B19", 20)  # type: ignore[arg-type]


def test_variant_from_name_none_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="a variant name is a string"):
        Variant.from_name(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value"),
    [("notation", "bogus"), ("captures", "long"), ("move_numbers", "x"), ("results", None)],
)
def test_write_game_refuses_an_unknown_option_value(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=rf"{option}={value!r} is not one of"):
        write_game(read_game(PDN), **{option: value})  # type: ignore[arg-type]


def test_write_game_takes_a_variant_name() -> None:
    game = read_game("1. 32-28 19-23 *")
    assert write_game(game, variant="international", notation="algebraic").startswith(
        '[GameType "20"]'
    )
