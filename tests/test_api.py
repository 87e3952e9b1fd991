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
    import pdn.replay as _replay_module  # noqa: F401  (importing a module must not rebind)
    import pdn.resolve as resolve_module

    assert callable(pdn.audit) and pdn.audit.__module__ == "pdn.replay"
    assert pdn.resolve is resolve_module  # the module; Position.parse_move is the API
    modules = {path.stem for path in Path(pdn.__file__).parent.glob("*.py")}
    assert not modules & set(pdn._EXPORTS)


def test_import_pdn_is_cheap() -> None:
    """``import pdn`` loads no engine module, no lark and no rich."""
    code = (
        "import sys, pdn; "
        "print(sorted(m for m in sys.modules if m.startswith(('pdn.', 'lark', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = pdn.no_such_name  # type: ignore[attr-defined]


def test_read_audit_round(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.pdn"
    path.write_text('[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n', encoding="utf-8")
    (game,) = pdn.read_games(str(path))
    codes = [finding.code for finding in pdn.audit(game)]
    assert codes == ["missed-capture"]
