"""The package's public names load lazily and are the objects of their modules."""

from __future__ import annotations

import pytest

import pdn


@pytest.mark.parametrize("name", sorted(pdn._EXPORTS))
def test_every_public_name_resolves(name: str) -> None:
    module = __import__(pdn._EXPORTS[name], fromlist=[name])
    assert getattr(pdn, name) is getattr(module, name)


def test_audit_and_resolve_are_the_functions_not_their_modules() -> None:
    import pdn.replay as _replay_module  # noqa: F401  (importing a module must not rebind)

    assert callable(pdn.audit) and pdn.audit.__module__ == "pdn.replay"
    assert callable(pdn.resolve) and pdn.resolve.__module__ == "pdn.resolve"


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = pdn.no_such_name  # type: ignore[attr-defined]


def test_read_audit_round(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.pdn"
    path.write_text('[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n', encoding="utf-8")
    (game,) = pdn.read_games(str(path))
    codes = [finding.code for finding in pdn.audit(game)]
    assert codes == ["missed-capture"]
