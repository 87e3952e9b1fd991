"""pgn-extract's filters in ``pdn select``: --tag, --not, --rest, --games, --moves, --split."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli

from pdn.database.filters import Criteria
from pdn.database.movestart import MoveStart
from pdn.database.picking import Picking, game_numbers
from pdn.database.selection import select, sift
from pdn.database.splitting import safe_file_name
from pdn.database.tagfilters import TagTest, tags_pass
from pdn.pdnfile.scan import iter_spans

GAMES = [
    ("World Championship", "Sijbrands, Ton", "Baba Sy", "2-0", "1994.05.01", "32-28 18-23 33-29"),
    ("world open", "Wiersma, Harm", "Sijbrands, Ton", "1-1", "1995", "32-28 18-23 37-32"),
    ("Dutch Ch / Final", "Baba Sy", "Wiersma, Harm", "0-2", "", "33-29 18-23 32-28"),
    ("Friendly", "A", "B", "*", "1996.??.??", "32-28 19-23 28x19 14x23"),
]


def _pdn(games: list[tuple[str, ...]] = GAMES, elo: bool = True) -> str:
    parts = []
    for number, (event, white, black, result, date, moves) in enumerate(games):
        tags = [("Event", event), ("White", white), ("Black", black), ("Result", result)]
        if date:
            tags.append(("Date", date))
        if elo:
            tags.append(("WhiteElo", str(2300 + 50 * number)))
        header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
        parts.append(f"{header}\n{moves} {result}\n")
    return "\n".join(parts)


@pytest.fixture
def games_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(_pdn())
    return path


def _numbers(paths: list[str], **criteria: object) -> list[int]:
    return [game.game for game in select(paths, Criteria(**criteria))]  # type: ignore[arg-type]


def test_tag_forms(games_file: Path) -> None:
    path = [str(games_file)]
    assert _numbers(path, tag_tests=(TagTest.parse("Event~^World"),)) == [1, 2]
    assert _numbers(path, tag_tests=(TagTest.parse("event=WORLD OPEN"),)) == [2]
    assert _numbers(path, tag_tests=(TagTest.parse("Result=2-0|0-2"),)) == [1, 3]
    assert _numbers(path, tag_tests=(TagTest.parse("Result!=1-1"),)) == [1, 3, 4]
    assert _numbers(path, tag_tests=(TagTest.parse("Date"),)) == [1, 2, 4]
    assert _numbers(path, tag_tests=(TagTest.parse("Date!~."),)) == [3]
    assert _numbers(path, tag_tests=(TagTest.parse("WhiteElo>=2350"),)) == [2, 3, 4]
    assert _numbers(path, tag_tests=(TagTest.parse("WhiteElo<2350"),)) == [1]
    both = (TagTest.parse("Event~world"), TagTest.parse("White~Wiersma"))
    assert _numbers(path, tag_tests=both) == [2]  # repeated --tag: AND


def test_tag_reads_dialect_names() -> None:
    assert tags_pass([TagTest.parse("White=Ton")], [("Bianco", "Ton")])
    assert not tags_pass([TagTest.parse("White=Ton")], [("Black", "Ton")])


@pytest.mark.parametrize("text", ["", "=x", "Event~(", "WhiteElo>=high"])
def test_bad_tag_test(text: str) -> None:
    with pytest.raises(ValueError):
        TagTest.parse(text)


def test_game_numbers() -> None:
    assert game_numbers("3,10-20,40-") == ((3, 3), (10, 20), (40, None))
    for bad in ("0", "20-10", "a", "", "3,,4"):
        with pytest.raises(ValueError):
            game_numbers(bad)
    assert Picking(((2, 3),)).last == 3
    assert Picking(((2, None),)).last is None
    assert Picking(((2, 3),), invert=True).last is None


def test_games_count_across_inputs(tmp_path: Path) -> None:
    first, second = tmp_path / "a.pdn", tmp_path / "b.pdn"
    first.write_text(_pdn(GAMES[:2]))
    second.write_text(_pdn(GAMES[2:]))
    picked = list(select([str(first), str(second)], Criteria(), picking=Picking(((2, 3),))))
    assert [(Path(g.file or "").name, g.game) for g in picked] == [("a.pdn", 2), ("b.pdn", 1)]


def test_not_is_the_complement_and_rest_the_other_games(games_file: Path) -> None:
    criteria = Criteria(tag_tests=(TagTest.parse("Event~world"),))
    chosen = {g.game for g in select([str(games_file)], criteria)}
    inverted = {g.game for g in select([str(games_file)], criteria, picking=Picking(invert=True))}
    assert chosen == {1, 2} and inverted == {3, 4}
    every = list(sift([str(games_file)], criteria))
    data = games_file.read_bytes()
    assert [g.data for g in every] == [data[g.start_byte : g.end_byte] for g in every]
    assert {g.game for g in every if g.passed} == chosen


def _brute_force_starts(path: Path, moves: list[str]) -> list[int]:
    """Games whose written main line starts with these texts (the file's own spelling)."""
    from pdn.pdnfile.reader import read_games

    found = []
    with path.open("rb") as source:
        for game in read_games(source, name=str(path)):
            written = [node.move_text for node in game.mainline()]
            if written[: len(moves)] == moves:
                found.append(game.source.game)
    return found


def test_moves_in_either_notation(
    games_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _numbers([str(games_file)], opening=MoveStart.parse("1. 32-28 18-23")) == [1, 2]
    assert _brute_force_starts(games_file, ["32-28", "18-23"]) == [1, 2]
    algebraic = tmp_path / "algebraic.pdn"
    code, out, _ = run_cli(capsys, "convert", str(games_file), "--notation", "algebraic")
    algebraic.write_text(out)
    assert code == 0 and "32-28" not in out
    assert _numbers([str(algebraic)], opening=MoveStart.parse("32-28 18-23")) == [1, 2]
    assert _numbers([str(games_file)], opening=MoveStart.parse("32-28 19-23 28x19")) == [4]
    assert _numbers([str(algebraic)], opening=MoveStart.parse("32-28 19-23 28x19")) == [4]
    with pytest.raises(ValueError, match="not legal"):
        MoveStart.parse("32-23")


def test_select_cli_rest_and_not(
    games_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rest, chosen = tmp_path / "rest.pdn", tmp_path / "chosen.pdn"
    code, _, err = run_cli(
        capsys,
        "select",
        str(games_file),
        "--tag",
        "Result=2-0|0-2",
        "-o",
        str(chosen),
        "--rest",
        str(rest),
    )
    assert (code, err) == (0, "")
    _same_games(games_file, [chosen, rest], [1, 3, 2, 4])
    inverted = tmp_path / "inverted.pdn"
    code, _, _ = run_cli(
        capsys, "select", str(games_file), "--tag", "Result=2-0|0-2", "--not", "-o", str(inverted)
    )
    assert code == 0 and inverted.read_bytes() == rest.read_bytes()
    code, out, _ = run_cli(capsys, "select", str(games_file), "--games", "2-3", "--format", "json")
    assert [json.loads(line)["game"] for line in out.splitlines()] == [2, 3]
    code, _, err = run_cli(capsys, "select", str(games_file), "--rest", str(games_file))
    assert code == 2 and "input" in err


def _same_games(source: Path, outputs: list[Path], order: list[int]) -> None:
    """The games of ``outputs`` are those of ``source`` in ``order``, byte for byte."""
    with source.open("rb") as stream:
        spans = {span.source.game: span for span in iter_spans(stream, name=str(source))}
    data = source.read_bytes()
    expected = [data[spans[n].source.start_byte : spans[n].source.end_byte] for n in order]
    written = []
    for output in outputs:
        with output.open("rb") as stream:
            content = output.read_bytes()
            written += [
                content[s.source.start_byte : s.source.end_byte] for s in iter_spans(stream)
            ]
    assert written == expected


def test_split_by_tag_and_by_count(
    games_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "events"
    code, _, err = run_cli(
        capsys, "select", str(games_file), "--split-by", "Event", "-o", str(folder)
    )
    assert code == 0 and "4 game(s) into 4 file(s)" in err
    names = sorted(os.listdir(folder))
    assert names == [
        "Dutch Ch _ Final.pdn",
        "Friendly.pdn",
        "World Championship.pdn",
        "world open.pdn",
    ]
    by_count = tmp_path / "pieces"
    code, _, _ = run_cli(capsys, "select", str(games_file), "--split", "3", "-o", str(by_count))
    assert code == 0 and sorted(os.listdir(by_count)) == ["0001.pdn", "0002.pdn"]
    _same_games(games_file, [by_count / "0001.pdn", by_count / "0002.pdn"], [1, 2, 3, 4])
    code, _, err = run_cli(capsys, "select", str(games_file), "--split", "3")
    assert code == 2 and "-o" in err


def test_split_case_only_names_share_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "g.pdn"
    source.write_text(_pdn([GAMES[0], (GAMES[0][0].upper(), *GAMES[0][1:])]))
    folder = tmp_path / "out"
    code, _, _ = run_cli(capsys, "select", str(source), "--split-by", "Event", "-o", str(folder))
    assert code == 0 and os.listdir(folder) == ["World Championship.pdn"]
    _same_games(source, [folder / "World Championship.pdn"], [1, 2])


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("Dutch Ch / Final", "Dutch Ch _ Final"),
        ('a<b>c:"d"|e?f*g\\h', "a_b_c__d__e_f_g_h"),
        ("CON", "CON_"),
        ("nul.txt", "nul.txt_"),
        (" .hidden. ", "hidden"),
        ("tab\there", "tab here"),
        ("...", "_"),
        ("Ж" * 80, "Ж" * 50),
    ],
)
def test_safe_file_name(value: str, name: str) -> None:
    assert safe_file_name(value) == name


def test_corpus_rest_and_selected_are_the_input(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = corpus / "mig0" / "Games-Checkers" / "data__games__internt__wk2003.pdn"
    if not source.exists():
        pytest.skip("wk2003.pdn is not in the corpus")
    chosen, rest = tmp_path / "chosen.pdn", tmp_path / "rest.pdn"
    code, _, _ = run_cli(
        capsys, "select", str(source), "--moves", "32-28", "-o", str(chosen), "--rest", str(rest)
    )
    assert code == 0
    every = list(sift([str(source)], Criteria(opening=MoveStart.parse("32-28"))))
    picked = [g.game for g in every if g.passed]
    assert picked and len(picked) < len(every)
    assert picked == _brute_force_starts(source, ["32-28"])
    others = [g.game for g in every if not g.passed]
    _same_games(source, [chosen, rest], picked + others)
    inverted = {
        g.game
        for g in select(
            [str(source)], Criteria(opening=MoveStart.parse("32-28")), picking=Picking(invert=True)
        )
    }
    assert inverted == set(others)


def test_search_gives_the_same_games_for_tag(tmp_path: Path) -> None:
    from pdn.database.index import Index

    files = [str(Path(__file__).parents[1] / "corpus" / "generated")]
    for text in ("Result=2-0", "Result!=2-0|1-0", "Variant~^(international|russian)$"):
        criteria = Criteria(tag_tests=(TagTest.parse(text),))
        streamed = {(Path(g.file or "").name, g.game) for g in select(files, criteria)}
        with Index(str(tmp_path / "g.db"), create=True) as index:
            index.update(files)
            indexed = {(Path(h.file).name, h.game) for h in index.find(criteria)}
        assert streamed and streamed == indexed, text


def test_split_never_overwrites_an_input(
    games_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "events"
    folder.mkdir()
    source = folder / "Friendly.pdn"
    source.write_text(_pdn(GAMES[3:]))
    before = source.read_bytes()
    code, _, err = run_cli(capsys, "select", str(folder), "--split-by", "Event", "-o", str(folder))
    assert code == 2 and "is an input of this run" in err
    assert source.read_bytes() == before and os.listdir(folder) == ["Friendly.pdn"]
    code, _, err = run_cli(capsys, "select", str(games_file), "--split", "2", "-o", str(source))
    assert code == 2 and "is a file" in err
