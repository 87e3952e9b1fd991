"""No import cycle between pdn's modules, counting imports inside functions.

Imports under ``if TYPE_CHECKING:`` never run and are not counted; the one exception allowed is
a renderable hook (``__rich__``) importing the view module it hands the object to.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pdn"
ALLOWED = {"__rich__"}  # functions whose imports may close a cycle


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The pdn modules ``path`` imports when it runs (module level or in any function)."""
    found: set[str] = set()

    def visit(node: ast.AST, skip: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child, skip)
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in ALLOWED:
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in modules:
                found.add(node.module)
            for alias in node.names:  # ``from pdn.commands import check``
                if f"{node.module}.{alias.name}" in modules:
                    found.add(f"{node.module}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child, skip)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(path) for path in paths}
    graph = {_module_name(path): _imports(path, modules) for path in paths}
    for name in graph:  # importing pdn.x.y runs pdn.x (and pdn) first: not an edge we count
        graph[name].discard(name)
    return graph


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


def test_no_import_cycle_counting_function_level_imports() -> None:
    graph = _graph()
    assert len(graph) > 30  # the walk found the package
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_walk_sees_function_level_imports() -> None:
    graph = _graph()
    assert "pdn.replay" in graph["pdn.record"]  # Game.replayed imports it inside the method
    assert "pdn.gameview" not in graph["pdn.record"]  # only from __rich__
    assert "pdn.boardview" not in graph["pdn.position"]  # only from __rich__
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_library_modules_never_import_the_command_line() -> None:
    """The verbs sit on top: ``pdn.commands`` and ``pdn.cli`` import the library, never the
    other way (``pdn.report`` once took ``common_folder`` from ``pdn.commands.check``)."""
    graph = _graph()
    upward = {
        (name, imported)
        for name, imports in graph.items()
        if not name.startswith(("pdn.commands", "pdn.cli", "pdn.__main__"))
        for imported in imports
        if imported.startswith(("pdn.commands", "pdn.cli"))
    }
    assert upward == set()
