"""Names files: ``stats --name-variants`` proposes one, ``fix --names`` rewrites to it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_cli

from pdn.arbiter.namerepair import read_names_file, rename_players
from pdn.database.names import names_file_text
from pdn.database.stats import stats
from pdn.game.record import Game

GAMES = (
    '[White "Sijbrands, Ton"]\n[Black "Baba Sy"]\n[Result "2-0"]\n\n1. 32-28 2-0\n\n'
    '[White "Ton Sijbrands"]\n[Black "Sy, Baba"]\n[Result "1-1"]\n\n1. 33-29 1-1\n\n'
    '[White "Ton Sijbrands"]\n[Black "Harm Wiersma"]\n[Result "0-2"]\n\n1. 34-29 0-2\n\n'
    '[Bianco "Sijbrands,  Ton"]\n[Nero "Baba Sy"]\n\n1. 32-27 *\n'
)


def test_read_names_file() -> None:
    text = "# comment\n\nTon Sijbrands\tSijbrands, Ton\tT. Sijbrands\n Baba Sy \tSy, Baba\n"
    assert read_names_file(text) == {
        "Ton Sijbrands": "Ton Sijbrands",
        "Baba Sy": "Baba Sy",
        "Sijbrands, Ton": "Ton Sijbrands",
        "T. Sijbrands": "Ton Sijbrands",
        "Sy, Baba": "Baba Sy",
    }
    with pytest.raises(ValueError, match=r"n\.tsv:2: expected canonical"):
        read_names_file("A\tB\nlonely\n", file="n.tsv")
    with pytest.raises(ValueError, match=r":2: 'B' is already a spelling of 'A'"):
        read_names_file("A\tB\nC\tB\n")


def test_rename_players_logs_each_change() -> None:
    game = Game([("Bianco", "Sijbrands,  Ton"), ("Black", "Baba Sy"), ("Event", "Sijbrands, Ton")])
    changes = rename_players(game, {"Sijbrands, Ton": "Ton Sijbrands"})
    assert game.tags[0] == ("Bianco", "Ton Sijbrands") and game.tags[2][1] == "Sijbrands, Ton"
    assert [(c.fix, c.code, c.before, c.after) for c in changes] == [
        ("player-name", None, '[Bianco "Sijbrands,  Ton"]', '[Bianco "Ton Sijbrands"]')
    ]
    assert rename_players(game, {"Sijbrands, Ton": "Ton Sijbrands"}) == []


def test_names_file_text_ranks_by_use() -> None:
    text = names_file_text([Counter({"Ton Sijbrands": 2, "Sijbrands, Ton": 3}), Counter({"A": 4})])
    assert text.splitlines()[1:] == ["Sijbrands, Ton\tTon Sijbrands"]
    tied = names_file_text([Counter({"T. Sijbrands": 1, "Ton Sijbrands": 1, "Ton  Sijbrands": 1})])
    assert tied.splitlines()[1:] == ["Ton Sijbrands\tT. Sijbrands"]  # spaces merged; longest


def test_propose_then_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, names, fixed, log = (tmp_path / name for name in ("g.pdn", "n.tsv", "f.pdn", "l.jsonl"))
    source.write_text(GAMES)
    code, out, _ = run_cli(
        capsys, "stats", str(source), "--name-variants", str(names), "--format", "json"
    )
    assert code == 0 and json.loads(out)["players"]  # the tables as well
    proposal = names.read_text().splitlines()
    # 2 games each way (the spaces merged): the longer spelling is proposed
    assert proposal[1:] == ["Baba Sy\tSy, Baba", "Sijbrands, Ton\tTon Sijbrands"]
    code, _, err = run_cli(
        capsys, "fix", str(source), "--names", str(names), "-o", str(fixed), "--log", str(log)
    )
    assert code == 0, err
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["game"], r["fix"], r["after"]) for r in records] == [
        (2, "player-name", '[White "Sijbrands, Ton"]'),
        (2, "player-name", '[Black "Baba Sy"]'),
        (3, "player-name", '[White "Sijbrands, Ton"]'),
        (4, "player-name", '[Bianco "Sijbrands, Ton"]'),
    ]
    assert "Ton Sijbrands" not in fixed.read_text() and "Sy, Baba" not in fixed.read_text()
    code, out, _ = run_cli(capsys, "stats", str(fixed), "--name-variants")
    assert code == 0 and out.splitlines()[1:] == []  # nothing left to merge; no tables
    code, _, err = run_cli(capsys, "fix", str(source), "--names", str(tmp_path / "none.tsv"))
    assert code == 2 and "none.tsv" in err


def test_corpus_names_round_trip(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    counts = stats([str(corpus)])
    names = tmp_path / "names.tsv"
    names.write_text(counts.name_variants(), encoding="utf-8")
    canonical_of = read_names_file(names.read_text(encoding="utf-8"))
    assert canonical_of, "the corpus has players written several ways"
    fixed = tmp_path / "fixed.pdn"
    code, _, _ = run_cli(capsys, "fix", str(corpus), "--names", str(names), "-o", str(fixed), "-q")
    assert code in (0, 1)
    after = stats([str(fixed)])
    assert after.name_variants().splitlines()[1:] == []
    assert sum(r.games for r in after.players.values()) == sum(
        r.games for r in counts.players.values()
    )
