"""`pdn dedupe` never merges records that disagree: copies whose White, Black or Result
contradict (names across spellings, results across styles) are all kept, as a conflict group;
``--merge-conflicts`` merges them anyway; copies that only lack tags merge as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdn.cli.main import main
from pdn.database.dedupe import dedupe
from pdn.engine.position import Position
from pdn.engine.variants import Variant

INTERNATIONAL = Variant.from_name("international")


def _line(plies: int) -> str:
    """A legal 10x10 main line of ``plies`` plies: the last legal move each time, numbered."""
    position, words = Position.initial(INTERNATIONAL), []
    for ply in range(plies):
        move = position.legal_moves[-1]
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move.notation(INTERNATIONAL.board, full=True))
        position = position.play(move)
    return " ".join(words)


LINE = _line(24)


def record(white: str | None, black: str | None, result: str, **tags: str) -> str:
    named = {"Event": "Micro-match", **tags}
    if white is not None:
        named["White"] = white
    if black is not None:
        named["Black"] = black
    if result != "*":
        named["Result"] = result
    head = "".join(f'[{name} "{value}"]\n' for name, value in named.items())
    return f'{head}[GameType "20"]\n\n{LINE} {result}\n\n'


def write(tmp_path: Path, *games: str) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text("".join(games), encoding="utf-8")
    return path


def test_swapped_players_are_kept_both_as_a_conflict(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        record("Sijbrands, Ton", "Wiersma, Harm", "1-1", Round="5.1"),
        record("Wiersma, Harm", "Sijbrands, Ton", "1-1", Round="5.2"),
    )
    found = dedupe([str(path)])
    [group] = found.groups
    assert found.conflicts == [group]
    assert group.kept_all and group.left_out == [] and group.merged == []
    assert set(group.conflicts) == {"White", "Black"}
    out = tmp_path / "out.pdn"
    assert main(["dedupe", str(path), "-o", str(out), "--report", str(tmp_path / "r.txt")]) == 1
    assert out.read_text(encoding="utf-8").count("[Event ") == 2
    report = (tmp_path / "r.txt").read_text(encoding="utf-8")
    assert "1 conflict group(s)" in report.splitlines()[0]
    assert "0 left out" in report.splitlines()[0]
    assert "group 1: conflict, every copy kept" in report
    assert 'conflicting White: "Sijbrands, Ton"' in report


def test_contradicting_results_are_kept_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, record("A. Baba", "C. Dede", "0-2"), record("A. Baba", "C. Dede", "1-1"))
    out = tmp_path / "out.pdn"
    assert main(["dedupe", str(path), "-o", str(out), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    [group] = document["groups"]
    assert group["kept"] is None and group["kept_all"] is True
    assert [said["value"] for said in group["conflicts"]["Result"]] == ["0-2", "1-1"]
    written = out.read_text(encoding="utf-8")
    assert "0-2\n" in written and "1-1\n" in written


def test_terminator_counts_as_the_result(tmp_path: Path) -> None:
    """A copy without a Result tag still says its result by its terminator."""
    second = record("A. Baba", "C. Dede", "*").replace(f"{LINE} *", f"{LINE} 2-0")
    path = write(tmp_path, record("A. Baba", "C. Dede", "0-2"), second)
    [group] = dedupe([str(path)]).groups
    assert group.kept_all and list(group.conflicts) == ["Result"]


def test_merge_conflicts_merges_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path,
        record("Sijbrands, Ton", "Wiersma, Harm", "1-1"),
        record("Wiersma, Harm", "Sijbrands, Ton", "1-1", Site="Hilversum"),
    )
    out = tmp_path / "out.pdn"
    assert main(["dedupe", str(path), "-o", str(out), "--merge-conflicts"]) == 1
    report = capsys.readouterr().out
    assert "merged anyway" in report.splitlines()[0] and "1 left out" in report
    assert out.read_text(encoding="utf-8").count("[Event ") == 1
    [group] = dedupe([str(path)], merge_conflicts=True).groups
    assert group.conflicts and not group.kept_all and len(group.left_out) == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("Sijbrands, Ton", "Wiersma, Harm", "2-0"), ("ton SIJBRANDS", "Harm Wiersma", "1-0")),
        (("T. Sijbrands", "H. Wiersma", "1-1"), ("Sijbrands, Ton", "Wiersma, Harm", "1/2-1/2")),
        (("Sijbrands, Ton", "?", "1-1"), ("Sijbrands, Ton", "Wiersma, Harm", "*")),
        (("Abaciev N.", "Ovechkin S.", "1-1"), ("Абациев Н.", "Овечкин С.", "1-1")),
    ],
    ids=["spelling-and-result-style", "initials", "missing-tags", "other-script"],
)
def test_agreeing_copies_merge_as_before(
    tmp_path: Path, first: tuple[str, str, str], second: tuple[str, str, str]
) -> None:
    path = write(tmp_path, record(*first), record(*second, Site="Hilversum"))
    [group] = dedupe([str(path)]).groups
    assert group.conflicts == {} and not group.kept_all
    assert len(group.left_out) == 1
    out = tmp_path / "out.pdn"
    assert main(["dedupe", str(path), "-o", str(out), "--report", str(tmp_path / "r")]) == 0
    assert out.read_text(encoding="utf-8").count("[Event ") == 1


def test_two_agree_one_disagrees_keeps_all_three(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        record("Abaciev N.", "Ovechkin S.", "1-1"),
        record("Ovechkin S.", "Abaciev N.", "1-1"),
        record("Абациев Н.", "Овечкин С.", "1-1"),
    )
    [group] = dedupe([str(path)]).groups
    assert group.kept_all and len(group.conflicts["White"]) == 3
