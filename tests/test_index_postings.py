"""Issue 29 on the index (schema 6): the positions a game first reaches from
``EXPLORER_PLIES`` on are grouped postings (``position_keys``) verified against the packed
boards, the materials grouped postings, the tags written once; every answer is the replay's."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from conftest import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.database.filters import Criteria
from pdn.database.gamefacts import game_facts
from pdn.database.index import Index, _line, _pieces
from pdn.database.indexschema import (
    BATCH_SPAN,
    EXPLORER_PLIES,
    create,
    key_candidates,
    key_rows,
    material_plies,
    material_rows,
    read_tags,
    write_tags,
)
from pdn.engine.position import Position
from pdn.engine.variants import Variant
from pdn.pdnfile.scan import iter_spans

ROOT = Path(__file__).resolve().parents[1]


def _empty() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    create(db)
    return db


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, (1 << 64) - 1), min_size=1, max_size=300),
    st.integers(1, 1 << 40),
    st.randoms(use_true_random=False),
)
def test_every_key_posted_is_a_candidate(keys: list[int], first: int, rng: random.Random) -> None:
    games = [first + rng.randrange(BATCH_SPAN) for _ in keys]
    db = _empty()
    db.executemany("INSERT INTO position_keys VALUES (?, ?, ?, ?, ?)", key_rows(keys, games))
    for key, game in zip(keys, games, strict=True):
        assert game in key_candidates(db, key)
        assert game in key_candidates(db, key - (1 << 64) if key >> 63 else key)  # signed too
    posted = set(keys)
    strangers = [random.Random(first).getrandbits(64) for _ in range(200)]
    wrong = sum(len(key_candidates(db, key)) for key in strangers if key not in posted)
    assert wrong <= 200 * 0.6  # fewer than 128 entries a row share 8 bits with a stranger


def test_a_batch_spans_fewer_than_65536_games() -> None:
    with pytest.raises(ValueError, match="spans"):
        key_rows([1, 2], [1, 1 + BATCH_SPAN])
    with pytest.raises(ValueError, match="spans"):
        material_rows([(1, 1, 0), (1, 1 + BATCH_SPAN, 0)])


@pytest.mark.parametrize("most", [200, 60_000, 100_000])
def test_material_postings_give_back_each_first_ply(most: int) -> None:
    rng = random.Random(most)
    postings = {
        (rng.randrange(5), 7 + rng.randrange(3000)): rng.randrange(most) for _ in range(500)
    }
    db = _empty()
    rows = material_rows([(sig, game, ply) for (sig, game), ply in postings.items()])
    db.executemany("INSERT INTO materials VALUES (?, ?, ?, ?)", rows)
    for signature in range(5):
        expected = {game: ply for (sig, game), ply in postings.items() if sig == signature}
        assert dict(material_plies(db, signature)) == expected


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["White", "Black", "Event", "Site", "Round", "white"]), st.text()
        ),
        max_size=8,
    ),
    st.lists(st.one_of(st.none(), st.text(max_size=3)), min_size=6, max_size=6),
)
def test_tags_come_back_as_written(tags: list[tuple[str, str]], values: list[str | None]) -> None:
    columns = dict(zip(("White", "Black", "Event", "Date", "Result", "Round"), values, strict=True))
    if tags:
        columns[tags[0][0]] = tags[0][1]  # a value the column also holds
    assert read_tags(write_tags(tags, columns), columns) == tuple(tags)


def _files() -> list[Path]:
    files = sorted((ROOT / "corpus" / "generated").glob("*.pdn"))
    real = sorted(CORPUS.rglob("data__games__internt__dutch96h.pdn")) if CORPUS.is_dir() else []
    return files + real


def test_later_positions_are_found_at_the_replayed_ply_with_the_move_played(
    tmp_path: Path,
) -> None:
    """Positions sampled from every ply, searched in every variant: the games and the first
    ply and next move of each are those of the replay (keys and moves of ``game_facts``),
    the explorer's count too."""
    files = _files()
    facts = [game_facts(span) for path in files for span in iter_spans(str(path))]
    with Index(str(tmp_path / "games.db"), create=True) as index:
        index.update([str(path) for path in files])
        db = index.connection
        rng = random.Random(29)
        rows = db.execute(
            "SELECT f.path, g.ordinal, g.variant, b.turn, b.boards FROM game_boards b"
            " JOIN games g ON g.id = b.game_id JOIN files f ON f.id = g.file_id"
        ).fetchall()
        by_game = {(str(Path(f.file or "").resolve()), f.game): f for f in facts}
        later = 0
        for path, ordinal, name, turn, blob in rng.sample(rows, 60):
            variant = Variant.from_name(name)
            plies = _line(variant, turn, blob)
            ply = rng.randrange(len(plies))
            side, boards = plies[ply]
            position = Position.from_pieces(variant, _pieces(boards), side)  # type: ignore[arg-type]
            key = by_game[path, ordinal].keys[ply]
            expected = {}
            for f in facts:
                if f.variant == name and key in f.keys:
                    first = f.keys.index(key)
                    move = f.moves[first] if first < len(f.moves) else None
                    expected[f.file, f.game] = (first, move)
            found = index.search(Criteria(position=position.fen(), variant=name), limit=0)
            got = {(hit.file, hit.game): (hit.ply, hit.next_move) for hit in found.hits}
            assert got == {
                (str(Path(file).resolve()), game): at for (file, game), at in expected.items()
            }
            assert found.total == len(expected) == sum(line.games for line in found.moves)
            later += any(first >= EXPLORER_PLIES for first, _move in expected.values())
        assert later > 20  # the postings were tested, not only the explorer's rows
