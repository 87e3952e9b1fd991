"""``--move``: each query form against a brute-force reading of the replayed positions (what
left the board, who moved, what was crowned), over real and generated games; sequences,
counts, shots and coups; ``select --move`` with JSON plies and ``--mark``."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import budget, run_cli
from hypothesis import given, settings
from replayed import corpus_games, line_pdn, playouts

from pdn.database.manoeuvres import ManoeuvreQuery, describe
from pdn.engine.movegen import Move
from pdn.engine.position import Position


@dataclass(frozen=True)
class Seen:
    """One ply read from the positions on either side of it (not from the engine's move)."""

    ply: int
    colour: str
    king: bool
    source: int
    target: int
    men: int
    kings: int
    crowned: bool
    pieces: dict[str, int]  # after the move


def seen(positions: list[Position], moves: list[Move]) -> list[Seen]:
    found = []
    for index, move in enumerate(moves):
        before, after = positions[index], positions[index + 1]
        mover = before.turn
        gone = [
            piece
            for square, piece in before.pieces()
            if piece.colour != mover and after.piece_at(square) is None
        ]
        moving = before.piece_at(move.path[0])
        assert moving is not None
        landed = after.piece_at(move.path[-1])
        assert landed is not None
        counts = {"W": after.count("W"), "B": after.count("B")}
        found.append(
            Seen(
                index + 1,
                mover,
                moving.is_king,
                move.path[0],
                move.path[-1],
                sum(not p.is_king for p in gone),
                sum(p.is_king for p in gone),
                not moving.is_king and landed.is_king,
                counts,
            )
        )
    return found


def brute_shots(plies: list[Seen], window: int = 6, coup: bool = False) -> set[tuple[int, int]]:
    """(first, last) ply of every shot, read forward from each possible sacrifice."""
    found: dict[int, int] = {}
    for p, start in enumerate(plies):
        given = 0
        for reply in range(p + 1, len(plies) - 1, 2):
            if not plies[reply].men + plies[reply].kings:
                break
            given += plies[reply].men + plies[reply].kings
            final = plies[reply + 1]
            taken = final.men + final.kings
            if final.ply - start.ply > window:
                break
            if taken and taken > given:
                found.setdefault(reply + 1, p)
            if taken:
                break
    # a coup is judged from the shot's first sacrifice
    return {
        (plies[p].ply, plies[q].ply) for q, p in found.items() if not coup or _wins(plies, p, q)
    }


def _wins(plies: list[Seen], p: int, q: int) -> bool:
    side, other = plies[p].colour, "B" if plies[p].colour == "W" else "W"
    if p:
        before = plies[p - 1].pieces[side] - plies[p - 1].pieces[other]
    else:
        first = plies[0]
        before = first.pieces[side] - first.pieces[other] - first.men - first.kings
    end = plies[min(q + 1, len(plies) - 1)]
    return end.pieces[side] - end.pieces[other] > before


def occurrences(query: str, positions: list[Position], moves: list[Move]) -> set[tuple[int, int]]:
    """(first, last) of each occurrence of a one-atom query, by the implementation."""
    (step,) = ManoeuvreQuery.parse(query).steps
    return {(o.first, o.last) for o in step.atom.occurrences(describe(positions, moves))}


def check_line(positions: list[Position], moves: list[Move]) -> None:
    """Every single-atom form against the brute force on one line."""
    plies = seen(positions, moves)

    def single(test: Callable[[Seen], object]) -> set[tuple[int, int]]:
        return {(s.ply, s.ply) for s in plies if test(s)}

    expected = {
        "x": single(lambda s: s.men + s.kings),
        "-": single(lambda s: not s.men + s.kings),
        "Wx": single(lambda s: s.colour == "W" and s.men + s.kings),
        "bK-": single(lambda s: s.colour == "B" and s.king and not s.men + s.kings),
        "wm*x*": single(lambda s: s.colour == "W" and not s.king and s.men + s.kings),
        "x takes:3..": single(lambda s: s.men + s.kings >= 3),
        "x kings:1..": single(lambda s: s.kings >= 1),
        "x men:2": single(lambda s: s.men == 2 and s.men + s.kings),
        "promotion": single(lambda s: s.crowned),
        "b promotion": single(lambda s: s.crowned and s.colour == "B"),
        "- promotes": single(lambda s: s.crowned and not s.men + s.kings),
        "capture": single(lambda s: s.men + s.kings),
        "shot": brute_shots(plies),
        "w shot takes:3..": {
            o
            for o in brute_shots(plies)
            if o[1] % 2 == (1 if plies and plies[0].colour == "W" else 0)
            and plies[o[1] - 1].men + plies[o[1] - 1].kings >= 3
        },
        "shot window:2": brute_shots(plies, window=2),
        "coup": brute_shots(plies, coup=True),
    }
    for query, want in expected.items():
        assert occurrences(query, positions, moves) == want, query
    for s in plies[:20]:
        piece, sign = "K" if s.king else "m", "x" if s.men + s.kings else "-"
        text = f"{s.colour}{piece}{s.source}{sign}{s.target}"
        assert (s.ply, s.ply) in occurrences(text, positions, moves), text


def test_query_forms_on_real_games_match_brute_force(corpus: Path) -> None:
    games = corpus_games(corpus)
    assert len(games) == 250
    shots = 0
    for facts in games:
        positions, moves = list(facts.positions), list(facts.played)
        check_line(positions, moves)
        shots += bool(occurrences("shot", positions, moves))
    assert shots > 10  # real games hold shots


@settings(max_examples=budget(60), deadline=None)
@given(line=playouts())
def test_query_forms_on_generated_games_match_brute_force(
    line: tuple[list[Position], list[Move]],
) -> None:
    check_line(*line)


@settings(max_examples=budget(30), deadline=None)
@given(line=playouts("russian"))
def test_query_forms_on_another_variant_match_brute_force(
    line: tuple[list[Position], list[Move]],
) -> None:
    check_line(*line)


@settings(max_examples=budget(60), deadline=None)
@given(line=playouts())
def test_sequences_and_counts_match_brute_force(line: tuple[list[Position], list[Move]]) -> None:
    positions, moves = line
    plies = seen(positions, moves)
    described = describe(positions, moves)
    captures = [s.ply for s in plies if s.men + s.kings]
    white = [s.ply for s in plies if s.men + s.kings and s.colour == "W"]
    black = [s.ply for s in plies if s.men + s.kings and s.colour == "B"]
    pairs = [(a, b) for a in white for b in black if 0 < b - a <= 3]
    found = ManoeuvreQuery.parse("Wx then within 3 Bx").find(described)
    assert (found is not None) == bool(pairs)
    if found is not None:
        assert found == min(pairs)
    anywhere = [(a, b) for a in white for b in black if b > a]
    found = ManoeuvreQuery.parse("Wx then Bx").find(described)
    assert found == (min(anywhere) if anywhere else None)
    found = ManoeuvreQuery.parse("at least 3 captures").find(described)
    assert found == (tuple(captures[:3]) if len(captures) >= 3 else None)
    found = ManoeuvreQuery.parse("2 Wx then at least 2 Bx").find(described)
    later = [b for b in black if len(white) >= 2 and b > white[1]]
    assert found == ((*white[:2], *later[:2]) if len(later) >= 2 else None)


def test_turbo_dambase_form_and_modifiers_parse() -> None:
    (step,) = ManoeuvreQuery.parse("bK46x02 takes:2.. over:41,37").steps
    atom = step.atom
    assert (atom.colour, atom.king, atom.from_square, atom.to_square, atom.capture) == (
        "B", True, 46, 2, True,
    )  # fmt: skip
    assert atom.takes == (2, 10**9) and atom.over == frozenset({41, 37})
    query = ManoeuvreQuery.parse("W sacrifice gives:2.. then within 10 at least 2 b promotions")
    first, second = query.steps
    assert first.atom.theme == "shot" and first.atom.colour == "W"
    assert (second.at_least, second.within, second.atom.theme) == (2, 10, "promotion")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("castles", "neither a move"),
        ("Wx then", "'then' needs a step"),
        ("x takes:3-4", "not a range"),
        ("x sideways:1", "not a modifier"),
        ("x window:3", "belong to shot and coup"),
        ("at least x", "needs a number and a move"),
        ("at least 0 captures", "positive number"),
    ],
)
def test_bad_queries_say_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        ManoeuvreQuery.parse(text)


# -- select -------------------------------------------------------------------------------


def test_select_names_the_matching_plies_and_marks_them(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corpus / "mig0/Games-Checkers/data__games__internt__dutch96h.pdn"
    query = "W shot takes:3.."
    code, out, _ = run_cli(capsys, "select", str(path), "--move", query, "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and rows
    games = {facts.game: facts for facts in corpus_games(corpus) if facts.file == str(path)}
    parsed = ManoeuvreQuery.parse(query)
    expected = {n: parsed.find(describe(f.positions, f.played)) for n, f in games.items()}
    assert {row["game"]: tuple(row["move_plies"]) for row in rows} == {
        n: plies for n, plies in expected.items() if plies is not None
    }
    code, out, _ = run_cli(capsys, "select", str(path), "--move", query, "--mark")
    assert code == 0
    assert out.count("{move W shot takes:3..}") == sum(len(row["move_plies"]) for row in rows)


def test_mark_puts_the_comment_after_the_matching_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = Position.initial("international")
    positions, moves = [start], []
    for text in ("32-28", "19-23", "28x19", "14x23"):
        moves.append(positions[-1].parse_move(text))
        positions.append(positions[-1].play(moves[-1]))
    path = tmp_path / "g.pdn"
    path.write_text(line_pdn(positions, moves))
    code, out, _ = run_cli(
        capsys, "select", str(path), "--move", "Bx", "--mark", "--pattern", "?:E19"
    )
    assert code == 0
    assert "14x23 {move Bx}" in out
    assert "19-23 {pattern ?:E19}" in out  # 19 is empty from ply 2 on
