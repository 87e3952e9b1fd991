"""`pdn fix` through ``pdn.cli.main.main``: outputs, the change log, --in-place safety, rejects,
idempotence, and property tests on random legal games with planted faults."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest
from conftest import CORPUS, budget
from conftest import run_cli as run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games

import pdn.batch.fixing as fixing
from pdn.arbiter.changelog import RepairOptions
from pdn.arbiter.normalize import NORMALIZATIONS
from pdn.cli.main import main
from pdn.engine.position import Position
from pdn.engine.variants import VARIANTS
from pdn.game.record import Game
from pdn.game.tags import result_spelling
from pdn.pdnfile.reader import read_games
from pdn.pdnfile.scan import iter_spans
from pdn.pdnfile.writer import write_game

BROKEN = '[Event "broken"]\n\n1. 32-28 ) 19-23 *\n'
FAULTY = (
    '[Event " Club "]\n[Date "14.12.2024"]\n[Result "1-0"]\n[GameType "20"]\n\n'
    "1. 32-28 19-23 5. 28x19 14x23 1-0\n"
)
CLEAN = '[Event "Clean"]\n[Result "*"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n'


def test_fix_writes_every_game_in_order_and_logs_each_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(FAULTY + "\n" + BROKEN + "\n" + CLEAN, encoding="utf-8")
    log = tmp_path / "log.jsonl"
    code, out, err = run(capsys, "fix", str(source), "--log", str(log), "--normalize", "all")
    assert code == 1  # an unreadable game is left as it is
    games = out.split("\n\n[")
    assert len(games) == 3
    assert out.startswith(
        '[Event "Club"]\n[Date "2024.12.14"]\n[Result "2-0"]\n[GameType "20"]\n\n'
        "1. 32-28 19-23 2. 28x19 14x23 2-0\n\n"
    )
    assert BROKEN in out and out.endswith(CLEAN)  # unreadable and clean games verbatim
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [record["fix"] for record in records] == [
        "tag-space",
        "date",
        "move-number",
        "result-style",
        "result-style",
    ]
    assert records[2] == {
        "file": str(source),
        "game": 1,
        "ply": 3,
        "move": "28x19",
        "line": 6,
        "column": 19,
        "code": "move-number",
        "fix": "move-number",
        "before": "5.",
        "after": "2.",
        "note": None,
    }
    assert f"{source}:6:19: fix[move-number] game 1 ply 3 28x19: 5. -> 2." in err
    assert "3 games in, 3 out; 1 changed, 5 changes; 1 unreadable, kept verbatim" in err


def test_rejects_take_the_unreadable_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out, rejects = tmp_path / "in.pdn", tmp_path / "out.pdn", tmp_path / "bad.pdn"
    source.write_text(CLEAN + "\n" + BROKEN, encoding="utf-8")
    code, _, err = run(capsys, "fix", str(source), "-o", str(out), "--rejects", str(rejects), "-q")
    assert code == 1
    assert out.read_text() == CLEAN
    assert rejects.read_text() == BROKEN
    assert "2 games in, 1 out (+1 to --rejects)" in err


def test_in_place_keeps_a_backup_and_leaves_unchanged_files_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    faulty, clean = tmp_path / "faulty.pdn", tmp_path / "clean.pdn"
    faulty.write_text(FAULTY, encoding="utf-8")
    clean.write_bytes(CLEAN.replace("\n", "\r\n").encode())
    code, out, _ = run(capsys, "fix", str(tmp_path), "--in-place", "-q", "--normalize", "all")
    assert (code, out) == (0, "")
    assert faulty.read_text().startswith('[Event "Club"]')
    assert (tmp_path / "faulty.pdn.bak").read_text() == FAULTY
    assert clean.read_bytes() == CLEAN.replace("\n", "\r\n").encode()  # nothing to fix
    assert not (tmp_path / "clean.pdn.bak").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "clean.pdn",
        "faulty.pdn",
        "faulty.pdn.bak",
    ]
    faulty.write_text(FAULTY, encoding="utf-8")
    (tmp_path / "faulty.pdn.bak").unlink()
    assert run(capsys, "fix", str(faulty), "--in-place", "--no-backup", "-q")[0] == 0
    assert not (tmp_path / "faulty.pdn.bak").exists()


def test_a_failure_while_writing_leaves_the_input_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "in.pdn"
    original = (FAULTY + "\n") * 3
    source.write_text(original, encoding="utf-8")
    calls = []

    def failing_writer(game: object, **options: object) -> str:
        calls.append(game)
        if len(calls) == 2:  # the second game: the first is already in the temporary file
            raise OSError(28, "No space left on device")
        return "written\n"

    monkeypatch.setattr(fixing, "write_game", failing_writer)
    code, out, err = run(capsys, "fix", str(source), "--in-place")
    assert code == 2
    assert "No space left on device" in err and "untouched" in err
    assert source.read_text(encoding="utf-8") == original
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.pdn"]  # no temp, no .bak


def test_in_place_refuses_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "fix", "-", "--in-place")
    assert code == 2 and "stdin" in err


def test_only_takes_codes_and_fix_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "fix", "x.pdn", "--only", "tag,nonsense")
    assert code == 2 and "nonsense" in err


def test_fix_of_a_fixed_file_is_byte_identical_with_no_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, once, twice = (tmp_path / name for name in ("in.pdn", "once.pdn", "twice.pdn"))
    source.write_text(FAULTY + "\n" + BROKEN + "\n" + CLEAN, encoding="utf-8")
    run(capsys, "fix", str(source), "-o", str(once))
    log = tmp_path / "log.jsonl"
    run(capsys, "fix", str(once), "-o", str(twice), "--log", str(log))
    assert twice.read_bytes() == once.read_bytes()
    assert log.read_text() == ""


def test_jobs_give_the_same_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.pdn"
    source.write_text("\n".join([FAULTY, CLEAN] * 40), encoding="utf-8")
    _, one, _ = run(capsys, "fix", str(source), "-q")
    _, two, _ = run(capsys, "fix", str(source), "-q", "--jobs", "2")
    assert one == two and one.count("[Event") == 80


# -- property tests: random legal games with planted faults ----------------------------------
@st.composite
def legal_games(draw: st.DrawFn) -> tuple[str, str]:
    """(clean PDN text, the same game with planted tag, result and move-number faults)."""
    name = draw(st.sampled_from(["international", "english", "russian", "brazilian"]))
    variant = VARIANTS[name]
    rng = random.Random(draw(st.integers(0, 10**6)))
    position, moves = Position.initial(variant), []
    for _ in range(draw(st.integers(1, 30))):
        legal = position.legal_moves
        if not legal:
            break
        move = rng.choice(legal)
        ends = [(other.path[0], other.path[-1]) for other in legal]
        full = ends.count((move.path[0], move.path[-1])) > 1  # a clean record is not ambiguous
        moves.append(move.notation(variant.board, variant.default_notation, full))
        position = position.play(move)
    numbered = [
        (f"{index // 2 + 1}. " if index % 2 == 0 else "") + move for index, move in enumerate(moves)
    ]
    outcome = draw(st.sampled_from(["first", "second", "draw", "unknown"]))
    if not position.legal_moves:  # the board decides
        outcome = "first" if position.turn != variant.first_mover else "second"
    result = result_spelling(outcome, variant)
    tags = [("Event", "Random"), ("Date", "2024.12.14"), ("GameType", str(variant.gametype))]
    clean = _pdn([*tags, ("Result", result)], " ".join(numbered), result)
    faulty_tags = [("Event", " Random "), ("Date", "14.12.2024"), ("Site", ""), *tags[2:]]
    if draw(st.booleans()) and len(numbered) > 2:  # a wrong move number
        numbered[2] = numbered[2].replace("2. ", "7. ", 1)
    other_style = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2", "1-0": "2-0", "0-1": "0-2"}
    other_style["1/2-1/2"] = "1-1"
    # a missing Result tag is added for a decided result only (a '*' tag would say nothing)
    fault = draw(
        st.sampled_from(["style", "no terminator"] + (["no tag"] if result != "*" else []))
    )
    terminator = tag = result
    if fault == "style":
        terminator = tag = other_style.get(result, result)
    elif fault == "no terminator":
        terminator = ""
    result_tags = [] if fault == "no tag" else [("Result", tag)]
    faulty = _pdn(faulty_tags + result_tags, " ".join(numbered), terminator)
    return clean, faulty


def _pdn(tags: list[tuple[str, str]], moves: str, result: str) -> str:
    lines = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return f"{lines}\n{moves} {result}".rstrip() + "\n"


def _fix_text(text: str) -> str:
    settings_ = fixing.FixSettings(RepairOptions(normalize=frozenset(NORMALIZATIONS)))
    spans = iter_spans(io.StringIO(text))
    return "\n".join(fixing.fix_span(span, settings_).text for span in spans)


def _read(text: str) -> list[Game]:
    return list(read_games(io.StringIO(text)))


def _same(left: list[Game], right: list[Game]) -> bool:
    return len(left) == len(right) and all(
        a.same_record(b) for a, b in zip(left, right, strict=True)
    )


@settings(max_examples=budget(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games())
def test_fix_restores_the_clean_game_and_is_idempotent(pair: tuple[str, str]) -> None:
    clean, faulty = pair
    once = _fix_text(faulty)
    assert _same(_read(once), _read(clean))
    assert _fix_text(once) == once
    assert _fix_text(clean) == clean  # a clean game comes out byte for byte
    before, after = _read(faulty), _read(once)
    assert len(before) == len(after)
    assert [game.mainline_texts() for game in before] == [game.mainline_texts() for game in after]


CORPUS_FILES = [
    CORPUS / "wiegerw" / "pdn" / "games__succeed__Tricks_traps_and_shots.pdn",
    CORPUS / "miskibin" / "py-draughts" / "test__games__american__random_pdns.pdn",
    CORPUS / "mig0" / "Games-Checkers" / "data__games__internt__candidate95.pdn",
]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda path: path.name)
def test_corpus_files_keep_every_game_and_fix_once(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    once, twice = tmp_path / "once.pdn", tmp_path / "twice.pdn"
    main(["fix", str(path), "-o", str(once), "-q"])
    main(["fix", str(once), "-o", str(twice), "-q"])
    capsys.readouterr()
    spans = sum(1 for _ in iter_spans(str(path)))
    assert sum(1 for _ in iter_spans(str(once))) == spans
    assert twice.read_bytes() == once.read_bytes()


def test_tagless_games_stay_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a tag section added to the first game would make the scanner read the others into it
    source, out = tmp_path / "in.pdn", tmp_path / "out.pdn"
    source.write_text("1. 22-18 11-15 1-0\n\n1. 22-17 9-13 0-1\n\n1. 23-19 *\n", encoding="utf-8")
    main(["fix", str(source), "-o", str(out), "--variant", "italian", "-q"])
    capsys.readouterr()
    assert sum(1 for _ in iter_spans(str(out))) == 3


def test_the_output_is_utf8_and_the_encoding_is_logged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out, log = tmp_path / "in.pdn", tmp_path / "out.pdn", tmp_path / "log.jsonl"
    source.write_bytes('[Event "Fryslân"]\n[GameType "20"]\n\n1. 32-28 *\n'.encode("cp1252"))
    assert main(["fix", str(source), "-o", str(out), "--log", str(log), "-q"]) == 0
    capsys.readouterr()
    assert out.read_bytes() == '[Event "Fryslân"]\n[GameType "20"]\n\n1. 32-28 *\n'.encode()
    (record,) = (json.loads(line) for line in log.read_text().splitlines())
    assert (record["fix"], record["before"], record["after"]) == ("encoding", "cp1252", "utf-8")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_an_unwritable_folder_leaves_the_input_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(FAULTY, encoding="utf-8")
    tmp_path.chmod(0o555)
    try:
        code, _, err = run(capsys, "fix", str(source), "--in-place")
    finally:
        tmp_path.chmod(0o755)
    assert code == 2 and f"{source} is untouched" in err
    assert source.read_text(encoding="utf-8") == FAULTY


def test_notation_rewrites_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(CLEAN, encoding="utf-8")
    code, out, _ = run(capsys, "fix", str(source), "--notation", "algebraic", "-q")
    assert code == 0 and out.endswith("1. d4-e5 g7-f6 *\n")


def test_an_interrupted_run_leaves_the_input_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "in.pdn"
    source.write_bytes(FAULTY.encode())

    def interrupted(game: object, **options: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(fixing, "write_game", interrupted)
    code, _, err = run(capsys, "fix", str(source), "--in-place")
    assert code == 130 and f"interrupted; {source} is untouched" in err
    assert source.read_bytes() == FAULTY.encode()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.pdn"]


@settings(max_examples=budget(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    games(max_nodes=12),
    st.sampled_from([RepairOptions(), RepairOptions(cut_irregular=True, cut_after_end=True)]),
)
def test_any_record_is_fixed_without_error_and_keeps_its_games(
    game: Game, options: RepairOptions
) -> None:
    text = write_game(game)
    spans = list(iter_spans(io.StringIO(text)))
    fixed = [fixing.fix_span(span, fixing.FixSettings(options)) for span in spans]
    assert not [c for item in fixed for c in item.changes if c.fix == fixing.INTERNAL]
    out = "\n".join(item.text for item in fixed)
    assert sum(1 for _ in iter_spans(io.StringIO(out))) == len(spans)
