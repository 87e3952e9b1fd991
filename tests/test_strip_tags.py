"""``convert --strip`` and ``--add-tags``: annotations out, computed tags in, moves kept."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import run_cli

from pdn.arbiter.addedtags import added_tags
from pdn.batch.converting import convert
from pdn.game.stripping import strip
from pdn.pdnfile.reader import read_games

ANNOTATED = (
    '[Event "x"]\n[PlyCount "99"]\n\n'
    "{start} 1. 32-28! {good [%clock 1:00]} (1. 33-29 $2 {side} 18-23) 19-23 $1 "
    "2. 28x19 {capture} 14x23 *\n"
)


def _games(text: str) -> list:  # type: ignore[type-arg]
    return list(read_games(io.BytesIO(text.encode()), name="t.pdn"))


def _converted(text: str, *, path: Path, **options: object) -> str:
    """``text`` written to ``path`` and converted with ``options``."""
    out = io.StringIO()
    path.write_text(text)
    convert(str(path), out, **options)  # type: ignore[arg-type]
    return out.getvalue()


def test_strip_each_part(tmp_path: Path) -> None:
    path = tmp_path / "a.pdn"
    bare = _converted(ANNOTATED, path=path, strip=("comments", "nags", "variations"))
    assert bare.endswith("\n1. 32-28 19-23 2. 28x19 14x23 *\n")
    no_comments = _converted(ANNOTATED, path=path, strip=("comments",))
    assert "{" not in no_comments and "(1. 33-29 $2 18-23)" in no_comments
    assert "32-28!" in no_comments and "$1" in no_comments
    no_nags = _converted(ANNOTATED, path=path, strip=("nags",))
    assert "$" not in no_nags and "!" not in no_nags and "{good" in no_nags
    no_lines = _converted(ANNOTATED, path=path, strip=("variations",))
    assert "(" not in no_lines and "{side}" not in no_lines and "{capture}" in no_lines
    assert _converted(ANNOTATED, path=path) == _converted(ANNOTATED, path=path, strip=())


def test_strip_refuses_unknown_parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="clocks"):
        strip(_games(ANNOTATED)[0], ["clocks"])
    code, _, err = run_cli(capsys, "convert", str(tmp_path / "none.pdn"), "--strip", "clocks")
    assert code == 2 and "comments, nags, variations" in err


def test_add_tags(tmp_path: Path) -> None:
    text = _converted(ANNOTATED, path=tmp_path / "a.pdn", add_tags=("plycount", "FinalFEN"))
    assert '[PlyCount "4"]' in text and "99" not in text  # replaced, not doubled
    assert '[FinalFEN "W:W31,33,' in text and ":B1,2,3,4,5,6,7,8,9,10,11,12,13,15," in text
    game = added_tags(_games(ANNOTATED.replace("19-23 $1", "18-23"))[0], ["FinalFEN", "PlyCount"])
    assert [name for name, _ in game.tags] == ["Event", "PlyCount"]  # no FEN of a broken line
    with pytest.raises(ValueError, match="WhiteElo"):
        added_tags(game, ["WhiteElo"])


def test_hash_code_is_the_same_game_however_written(tmp_path: Path) -> None:
    numeric = _converted(ANNOTATED, path=tmp_path / "a.pdn", add_tags=("HashCode",))
    algebraic = _converted(ANNOTATED, path=tmp_path / "b.pdn", notation="algebraic")
    again = _converted(algebraic, path=tmp_path / "c.pdn", add_tags=("HashCode",))
    other = _converted(
        ANNOTATED.replace("19-23", "18-23"), path=tmp_path / "d.pdn", add_tags=("HashCode",)
    )

    def code(text: str) -> str:
        return dict(_games(text)[0].tags)["HashCode"]

    assert "32-28" not in again and code(numeric) == code(again) != code(other)


def test_strip_corpus_keeps_the_main_line(corpus: Path, tmp_path: Path) -> None:
    files = sorted(corpus.rglob("*.pdn"))[:40]
    assert files
    for path in files:
        out = io.StringIO()
        try:
            convert(str(path), out, strip=("comments", "nags", "variations"))
        except OSError:
            continue
        with path.open("rb") as source:
            before = list(read_games(source, name=str(path)))
        after = _games(out.getvalue())
        assert len(after) == len(before), path
        for old, new in zip(before, after, strict=True):
            if old.raw is not None or old.findings:
                continue  # copied as written, or read with repairs
            assert new.mainline_texts() == old.mainline_texts(), path
            unscored = [tag for tag in old.tags if tag[0] != "Result"]  # convert respells it
            assert [tag for tag in new.tags if tag[0] != "Result"] == unscored
            assert not any(n.comments_after or n.comments_before or n.nags for n in new.walk())
            assert all(len(n.variations) <= 1 for n in [new, *new.walk()])
