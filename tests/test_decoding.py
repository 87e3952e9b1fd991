"""Decoding per game, outputs that read back as what went in, line numbers for any mix of line
ends (issue 24): each case built as bytes in ``tmp_path``."""

from __future__ import annotations

import io
from pathlib import Path

from pdn.arbiter.replay import audit
from pdn.batch.fixing import fix
from pdn.database.dedupe import dedupe
from pdn.database.filters import Criteria
from pdn.database.names import name_matches
from pdn.database.selection import select, write_selected
from pdn.pdnfile.reader import read_games
from pdn.pdnfile.scan import iter_spans


def game(white: str, black: str, event: str = "E") -> str:
    return f'[Event "{event}"]\n[White "{white}"]\n[Black "{black}"]\n1. 32-28 19-23 *\n\n'


def damaged_file(tmp_path: Path) -> Path:
    """Four games in UTF-8; the second has a Cyrillic letter cut to its first byte."""
    cut = (
        '[Event "E"]\n[White "Ку'.encode() + b"\xd0" + 'ица"]\n[Black "P"]\n1. 32-28 *\n\n'.encode()
    )
    data = game("Куница", "Иванов").encode() + cut
    data += (game("Куница", "Сидоров") + game("Петров", "Куница")).encode()
    path = tmp_path / "damaged.pdn"
    path.write_bytes(data)
    return path


def test_damaged_utf8_stays_utf8_with_one_finding(tmp_path: Path) -> None:
    spans = list(iter_spans(damaged_file(tmp_path)))
    assert [dict(s.tags)["White"] for s in spans] == ["Куница", "Ку\ufffdица", "Куница", "Петров"]
    assert dict(spans[3].tags)["Black"] == "Куница"
    found = [f for s in spans for f in s.findings]
    (finding,) = found
    assert (finding.code, finding.line, finding.column) == ("encoding", 7, 11)
    assert "D0" in finding.message


def test_cp1251_file_is_still_read_as_cp1251(tmp_path: Path) -> None:
    path = tmp_path / "cp.pdn"
    path.write_bytes((game("Куница", "Иванов") * 2).encode("cp1251"))
    spans = list(iter_spans(path))
    assert [s.tags[1][1] for s in spans] == ["Куница", "Куница"]
    (finding,) = [f for s in spans for f in s.findings]
    assert "cp1251" in finding.message


def test_files_mixing_utf8_and_cp1251_games_are_read_game_by_game(tmp_path: Path) -> None:
    path = tmp_path / "mix.pdn"
    path.write_bytes(
        game("Куница", "A").encode("cp1251")
        + game("Куница", "B").encode()
        + game("Куница", "C").encode("cp1251")
    )
    spans = list(iter_spans(path))
    assert [s.tags[1][1] for s in spans] == ["Куница"] * 3
    assert [len(s.findings) for s in spans] == [1, 0, 1]


def test_fix_writes_and_logs_u_fffd_and_check_still_shows_it(tmp_path: Path) -> None:
    out, log = tmp_path / "out.pdn", io.StringIO()
    fix([str(damaged_file(tmp_path))], str(out), log=log)
    assert "Ку\ufffdица" in out.read_text(encoding="utf-8")
    assert '"before": "D0", "after": "U+FFFD"' in log.getvalue()
    games = list(read_games(str(out)))
    (finding,) = [f for g in games for f in g.findings if f.code == "encoding"]
    assert "U+FFFD" in finding.message and finding.line == 7


def test_player_matches_a_name_with_u_fffd(tmp_path: Path) -> None:
    assert name_matches("Куница", "Ку\ufffdица") and name_matches("Kunica", "Ku\ufffd\ufffdca")
    assert not name_matches("Иванов", "Ку\ufffdица")
    chosen = list(select([str(damaged_file(tmp_path))], Criteria(players=("Куница",))))
    assert len(chosen) == 4


def read_back(path: Path) -> int:
    return sum(1 for _ in iter_spans(path))


def test_select_on_utf16_reads_back_as_two_games(tmp_path: Path) -> None:
    path, out = tmp_path / "wide.pdn", tmp_path / "out.pdn"
    path.write_bytes((game("Élodie", "B") + game("C", "D")).encode("utf-16"))
    with out.open("wb") as stream:
        assert write_selected(select([str(path)], Criteria()), stream) == 2
    spans = list(iter_spans(out))
    assert [s.tags[1][1] for s in spans] == ["Élodie", "C"] and not spans[0].findings


def test_a_header_only_last_game_keeps_apart_from_the_next_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.pdn", tmp_path / "b.pdn"
    first.write_text(game("A", "B") + '[Event "H"]\n[White "X"]\n', encoding="utf-8")
    second.write_text(game("C", "D"), encoding="utf-8")
    paths = [str(first), str(second)]
    selected, deduped, fixed = (tmp_path / name for name in ("s.pdn", "d.pdn", "f.pdn"))
    with selected.open("wb") as stream:
        write_selected(select(paths, Criteria()), stream)
    with deduped.open("w", encoding="utf-8") as stream:
        dedupe(paths).write_games(stream)
    fix(paths, str(fixed))
    for out in (selected, deduped, fixed):
        assert read_back(out) == 3, out.read_text(encoding="utf-8")


def test_line_numbers_are_right_for_mixed_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_bytes(
        b'[Event "a"]\n1. 32-28 *\r\r[Event "b"]\r1. 32-28 19-23 2. 28x19 *\r\n\r\n'
        b'[Event "c"]\r1. 32-28 3. 19-23 *\r'
    )
    spans = list(iter_spans(path))
    assert [s.source.line for s in spans] == [1, 4, 7]
    (finding,) = [f for g in read_games(str(path)) for f in audit(g)]
    assert (finding.code, finding.line, finding.column) == ("move-number", 8, 13)
