"""The package's layers, read from its import graph (imports inside functions included).

A module imports only its own layer and the layers below it, with no cycle; a verb of the
command line never imports another verb. Imports under ``if TYPE_CHECKING:`` never run and
are not counted. ``pdn/__init__.py`` and ``pdn/__main__.py`` sit above every layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pdn"

#: The layers from the bottom; each subpackage of pdn is one.
LAYERS = ("base", "engine", "game", "arbiter", "pdnfile", "views", "batch", "database", "cli")
#: Modules of ``pdn.cli`` that are not verbs: the parser over all verbs and what verbs share.
CLI_SHARED = {
    "pdn.cli",
    "pdn.cli.main",
    "pdn.cli.arguments",
    "pdn.cli.exitcodes",
    "pdn.cli.progress",
}
TOP = {"pdn", "pdn.__main__"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(source: str, modules: set[str]) -> set[str]:
    """The pdn modules ``source`` imports when it runs (module level or in any function)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in modules:
                found.add(node.module)
            for alias in node.names:  # ``from pdn.cli import check``
                if f"{node.module}.{alias.name}" in modules:
                    found.add(f"{node.module}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return found


def _graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(path) for path in paths}
    graph = {
        _module_name(path): _imports(path.read_text(encoding="utf-8"), modules) for path in paths
    }
    for name, imports in graph.items():  # importing pdn.x.y runs pdn and pdn.x first: no edge
        imports.difference_update({name, "pdn", name.rsplit(".", 1)[0]})
    return graph


def _layer(module: str) -> int:
    """The rank of ``module``'s layer; the package's top modules rank above every layer."""
    if module in TOP:
        return len(LAYERS)
    return LAYERS.index(module.split(".")[1])


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path, or None. Iterative depth-first search."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    for root in graph:
        if state.get(root):
            continue
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        path = [root]
        state[root] = 1
        while stack:
            name, pending = stack[-1]
            if not pending:
                state[name] = 2
                stack.pop()
                path.pop()
                continue
            following = pending.pop()
            if state.get(following) == 1:
                return path[path.index(following) :] + [following]
            if not state.get(following):
                state[following] = 1
                path.append(following)
                stack.append((following, sorted(graph.get(following, ()))))
    return None


def test_every_module_is_in_a_layer() -> None:
    graph = _graph()
    assert len(graph) > 40  # the walk found the package
    outside = [name for name in graph if name not in TOP and name.split(".")[1] not in LAYERS]
    assert outside == []


def test_no_import_goes_up_a_layer() -> None:
    upward = sorted(
        f"{name} -> {imported}"
        for name, imports in _graph().items()
        for imported in imports
        if _layer(imported) > _layer(name)
    )
    assert upward == []


def test_no_import_cycle_counting_function_level_imports() -> None:
    graph = _graph()
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_no_verb_imports_another_verb() -> None:
    graph = _graph()
    verbs = {name for name in graph if name.startswith("pdn.cli.") and name not in CLI_SHARED}
    across = sorted(
        f"{name} -> {imported}" for name in verbs for imported in graph[name] if imported in verbs
    )
    assert len(verbs) >= 13
    assert across == []


def test_the_walk_sees_function_level_and_upward_imports() -> None:
    modules = {"pdn.game.record", "pdn.arbiter.replay", "pdn.cli.check", "pdn.cli.report"}
    inside = "def replayed():\n    from pdn.arbiter.replay import replay\n"
    assert _imports(inside, modules) == {"pdn.arbiter.replay"}
    typing_only = "if TYPE_CHECKING:\n    from pdn.arbiter.replay import Replay\n"
    assert _imports(typing_only, modules) == set()
    assert _imports("from pdn.cli import check\n", modules) == {"pdn.cli.check"}
    assert _layer("pdn.arbiter.replay") > _layer("pdn.game.record")
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
