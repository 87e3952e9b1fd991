"""`check` says, `fix` does (issue 25): on the shared corpus and on every file of corpus/, every
change `pdn fix` makes by default answers a finding `pdn check -v --format json` reports on the
same file and game with the same code (at the same ply when both have one; a `move-number`
finding covers the renumbering from its ply on), and `pdn fix --dry-run` writes nothing and
logs exactly the changes of `pdn fix -o`. Run in this process (`pdn.cli.main.main`); the
shared corpus on two jobs."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import CORPUS

from pdn.base.paths import expand_paths
from pdn.cli.main import main
from pdn.game.tags import outcome_of, tag_value
from pdn.pdnfile.reader import read_games

REPO_CORPUS = Path(__file__).resolve().parents[1] / "corpus"
REPO_FILES = sorted(str(path) for path in REPO_CORPUS.rglob("*") if path.suffix.lower() == ".pdn")

Key = tuple[str, int, str]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def _records(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _files(paths: list[str]) -> dict[Path, tuple[int, int]]:
    """Every file under ``paths`` with its size and modification time."""
    found = {}
    for path in map(Path, paths):
        for file in [path] if path.is_file() else path.rglob("*"):
            if file.is_file():
                stat = file.stat()
                found[file] = (stat.st_size, stat.st_mtime_ns)
    return found


def _unanswered(
    changes: list[dict[str, object]], findings: list[dict[str, object]]
) -> list[dict[str, object]]:
    """The changes made (``after`` set) with no finding of their file, game and code (at
    their ply, when both have one; at or before it for ``move-number``)."""
    plies: dict[Key, set[int | None]] = defaultdict(set)
    for finding in findings:
        key = (str(finding["file"]), int(str(finding["game"])), str(finding["code"]))
        plies[key].add(finding["ply"])  # type: ignore[arg-type]
    left = []
    for change in changes:
        if change["after"] is None:
            continue
        found = plies.get((str(change["file"]), int(str(change["game"])), str(change["code"])))
        ply = change["ply"]
        if found and (None in found or ply is None):
            continue
        numbered = [at for at in found or () if at is not None]
        if change["code"] == "move-number" and numbered and min(numbered) <= int(str(ply)):
            continue
        if found and ply in found:
            continue
        left.append(change)
    return left


def _contradicting(paths: list[str]) -> list[int]:
    """The ordinals (across ``paths``) of the games whose Result tag and terminator say
    different things (``*`` included)."""

    def said(text: str | None) -> str | None:
        return "unknown" if text is not None and text.strip() == "*" else outcome_of(text)

    found = []
    games = (game for path in expand_paths(paths) for game in read_games(path))
    for ordinal, game in enumerate(games, 1):
        tag, end = said(tag_value(game.tags, "Result", aliases=True)), said(game.result)
        if tag is not None and end is not None and tag != end:
            found.append(ordinal)
    return found


def _agree(capsys: pytest.CaptureFixture[str], tmp_path: Path, paths: list[str], jobs: str) -> None:
    """Check, fix -o --log and fix --dry-run ``paths``; assert the rule and the dry run."""
    code, out = _run(
        capsys, "check", "-v", "--format", "json", "--no-summary", "--jobs", jobs, *paths
    )
    assert code in (0, 1, 2)
    findings = _records(out)
    fixed, log = tmp_path / "fixed.pdn", tmp_path / "log.jsonl"
    code, _ = _run(capsys, "fix", "-q", "--jobs", jobs, *paths, "-o", str(fixed), "--log", str(log))
    changes = _records(log.read_text(encoding="utf-8"))
    assert _unanswered(changes, findings) == []
    # fix never writes a Result tag and terminator that disagree (it keeps one it cannot settle)
    assert set(_contradicting([str(fixed)])) <= set(_contradicting(paths))

    before = _files([*paths, str(tmp_path)])
    dry, dry_out = _run(capsys, "fix", "-q", "--jobs", jobs, "--dry-run", *paths)
    assert _files([*paths, str(tmp_path)]) == before  # nothing written, nothing touched
    assert dry == code
    assert _records(dry_out) == changes


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_every_default_change_on_the_shared_corpus_has_its_finding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _agree(capsys, tmp_path, [str(CORPUS)], "2")


@pytest.mark.parametrize("path", REPO_FILES, ids=lambda path: Path(path).name)
def test_every_default_change_on_each_corpus_file_has_its_finding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: str
) -> None:
    _agree(capsys, tmp_path, [path], "1")


def test_the_rule_is_tested_on_changes() -> None:
    """The helper flags a change without its finding (and accepts one with it)."""
    change = {"file": "a", "game": 2, "code": "tag", "ply": None, "after": "x"}
    assert _unanswered([change], []) == [change]
    assert _unanswered([change], [{"file": "a", "game": 1, "code": "tag", "ply": None}]) == [change]
    assert _unanswered([change], [{"file": "a", "game": 2, "code": "tag", "ply": None}]) == []
    moved = {**change, "code": "move-number", "ply": 7}
    assert _unanswered([moved], [{"file": "a", "game": 2, "code": "move-number", "ply": 3}]) == []
    assert _unanswered([moved], [{"file": "a", "game": 2, "code": "move-number", "ply": 9}]) != []
