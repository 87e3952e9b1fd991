"""The package's public names load lazily and are the objects of their modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pdn


@pytest.mark.parametrize("name", sorted(pdn._EXPORTS))
def test_every_public_name_resolves(name: str) -> None:
    module = __import__(pdn._EXPORTS[name], fromlist=[name])
    assert getattr(pdn, name) is getattr(module, name)


def test_no_name_is_both_a_module_and_a_function() -> None:
    import pdn.arbiter.replay as _replay_module  # noqa: F401  (importing a module must not rebind)
    import pdn.engine.resolve as resolve_module

    assert callable(pdn.audit) and pdn.audit.__module__ == "pdn.arbiter.replay"
    assert pdn.engine.resolve is resolve_module  # the module; Position.parse_move is the API
    modules = {path.stem for path in Path(pdn.__file__).parent.glob("*.py")}
    assert not modules & set(pdn._EXPORTS)


def test_import_pdn_is_cheap() -> None:
    """``import pdn`` loads no engine module, no lark and no rich: only the hooks table."""
    code = (
        "import sys, pdn; "
        "print(sorted(m for m in sys.modules if m.startswith(('pdn.', 'lark', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['pdn.base', 'pdn.base.hooks']"


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = pdn.no_such_name  # type: ignore[attr-defined]


def test_read_audit_round(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.pdn"
    path.write_text('[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n', encoding="utf-8")
    (game,) = pdn.read_games(str(path))
    codes = [finding.code for finding in pdn.audit(game)]
    assert codes == ["missed-capture"]


def test_every_public_function_takes_a_variant_name_as_its_variant() -> None:
    """Each public function with a variant parameter answers for ``"russian"`` what it
    answers for the ``Variant``; the game names no variant, so the argument decides."""
    import io

    from pdn.arbiter.detect import detect_variant
    from pdn.arbiter.replay import replay
    from pdn.engine.drawrules import long_diagonal, profile_for
    from pdn.engine.movegen import rules_for
    from pdn.pdnfile.writer import game_to_json, rewritten_moves, variant_of, write_games

    russian = pdn.Variant.from_name("russian")
    game = pdn.read_game("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *")

    def same(call) -> None:  # type: ignore[no-untyped-def]
        by_name, by_variant = call("russian"), call(russian)
        assert by_name == by_variant

    same(pdn.Position.initial)
    same(lambda variant: pdn.Position.from_fen("W:Wc3:Bf6", variant))
    same(lambda variant: pdn.Position.from_pieces(variant, {21: pdn.Piece.WHITE_MAN}, "W"))
    same(lambda variant: replay(game, variant=variant).findings)
    same(lambda variant: pdn.audit(game, variant=variant))
    same(lambda variant: game.replayed(variant=variant).variant)
    same(lambda variant: pdn.write_game(game, variant=variant, notation="numeric"))
    same(lambda variant: write_games([game], io.StringIO(), variant=variant, notation="numeric"))
    same(lambda variant: pdn.game_to_json(game, variant=variant))
    same(lambda variant: game_to_json(game, variant=variant)["variant"])
    same(lambda variant: list(rewritten_moves(game, variant, "numeric", full=True).values()))
    same(lambda variant: variant_of(game, variant))
    same(lambda variant: pdn.detect_variant(game, variant))
    same(lambda variant: detect_variant(game, variant)[0].name)
    same(rules_for)
    same(profile_for)
    same(long_diagonal)
    written = pdn.write_game(game, variant="russian", notation="numeric")
    assert written == '[GameType "25"]\n\n1. 22-18 11-15 2. 18:11 8:15 *\n'  # Russian ':'
    assert game_to_json(game, variant="russian")["variant"] == "russian"
    assert rules_for("russian") is rules_for(russian)
    with pytest.raises(ValueError):
        rules_for("no-such-variant")
