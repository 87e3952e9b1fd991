"""The game record: ``Game`` (root) and ``GameNode`` tree, tags, comments, NAGs, commands.

A record is what a PDN game *says*, losslessly: tags in file order (duplicates kept), a move
tree (``variations[0]`` is the main line), comments before/after moves, NAGs, strengths,
embedded ``[%command ...]`` values, ``/FEN "..."/`` setups and the terminator. Nothing here
knows the rules. Every walk over the tree is a loop with an explicit stack, so 5,000-ply games
and 200-deep variations never hit the recursion limit (equality and pickling included).

Nodes are hashable and compare by identity (``==`` is ``is``), so they key dicts and sets
(``Replay.played[node]``), as python-chess's nodes do. ``a.same_record(b)`` compares content
only, never source positions or reading findings: ``read_game(write_game(game))
.same_record(game)`` is the round-trip contract.

``node.move`` (the resolved move; ``node.move_text`` is the text as written) and
``node.position()`` / ``node.position_after()`` read the game's one cached replay
(``Game.replayed()``, ``pdn.arbiter.replay``), made on the first question.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from pdn.base.findings import Finding
from pdn.base.hooks import lent
from pdn.game.embedded import Command, commands_in
from pdn.game.numbering import Numbering
from pdn.game.treewalk import mainline_nodes, walk_lines, walk_nodes

if TYPE_CHECKING:
    from pdn.arbiter.replay import Replay
    from pdn.engine.movegen import Move
    from pdn.engine.position import Position
    from pdn.engine.variants import Variant
    from pdn.game.visitor import GameVisitor
    from pdn.views.gameview import GameView


@dataclass(frozen=True)
class Source:
    """Where a game came from: file name, 1-based ordinal, start line/column, offsets."""

    file: str | None = None
    game: int = 1
    line: int = 1
    column: int = 1
    start_char: int = 0
    end_char: int = 0
    start_byte: int | None = None
    end_byte: int | None = None


R = TypeVar("R")
T = TypeVar("T")

_NEWLINE = re.compile("\n")


class TextPlaces:
    """Char offsets in a game's text -> (line, column) in its file, 1-based; ``line`` and
    ``column`` are where the text starts. The newline table is built on the first question
    (O(len(text)); the text is then dropped), each answer costs O(log lines)."""

    __slots__ = ("text", "line", "column", "newlines")

    def __init__(self, text: str, line: int = 1, column: int = 1) -> None:
        self.text: str | None = text
        self.line = line
        self.column = column
        self.newlines: list[int] | None = None

    def __call__(self, offset: int) -> tuple[int, int]:
        newlines = self.newlines
        if newlines is None:
            assert self.text is not None
            newlines = self.newlines = [match.start() for match in _NEWLINE.finditer(self.text)]
            self.text = None
        before = bisect_left(newlines, offset)
        if not before:
            return self.line, self.column + offset
        return self.line + before, offset - newlines[before - 1]


class _SlotField:
    """A field of ``GameNode`` kept in the private slot ``_<name>`` (``self.slot``, the
    slot's member descriptor), read and written through the subclass's rule."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = owner.__dict__["_" + name]


class _LazyList(_SlotField, Generic[T]):
    """A list field whose slot holds ``None`` until the list is first read: reading makes
    and keeps an empty list, so ``node.nags.append(...)`` works on any node. O(1)."""

    @overload
    def __get__(self, node: None, owner: type) -> _LazyList[T]: ...
    @overload
    def __get__(self, node: GameNode, owner: type) -> list[T]: ...
    def __get__(self, node: GameNode | None, owner: type) -> list[T] | _LazyList[T]:
        if node is None:
            return self
        value: list[T] | None = self.slot.__get__(node, owner)
        if value is None:
            value = []
            self.slot.__set__(node, value)
        return value

    def __set__(self, node: GameNode, value: list[T]) -> None:
        self.slot.__set__(node, value)


class _Place(_SlotField):
    """``line`` or ``column``: a reader-built node finds both from its offset on the first
    read or write of either (``GameNode._find_place``, once). O(log lines) the first time,
    then O(1)."""

    @overload
    def __get__(self, node: None, owner: type) -> _Place: ...
    @overload
    def __get__(self, node: GameNode, owner: type) -> int: ...
    def __get__(self, node: GameNode | None, owner: type) -> int | _Place:
        if node is None:
            return self
        if node._places is not None:
            node._find_place()
        value: int = self.slot.__get__(node, owner)
        return value

    def __set__(self, node: GameNode, value: int) -> None:
        if node._places is not None:
            node._find_place()
        self.slot.__set__(node, value)


class GameNode:
    """One move of the tree (the root ``Game`` has ``move_text is None``).

    ``move_text`` is the move as written, normalised: lower-case squares, leading zeros
    dropped, separators as written (``"32-28"``, ``"28x19x10"``, ``"c3:e5"``, ``"ed4"``,
    ``"--"`` for an unknown move).
    ``move_number`` is ``"23."``/``"23..."`` (leading zeros dropped) or ``None``.

    ``nags``, ``comments_before``, ``comments_after`` and ``commands`` are lists kept in
    private slots that hold ``None`` until the list is first read (``_LazyList``): most moves
    have none of them, so a move costs no list objects, and ``has_annotations()`` answers
    without making any.

    The reader builds nodes without ``__init__`` (``object.__new__``, then ``parent``,
    ``move_text``, ``move_number``, ``strength``, ``setup``, ``variations``, the four list
    slots, ``_offset`` and ``_places`` set inline in its hot loop): ``line`` and ``column``
    come from ``_places(_offset)`` on first access. The class has no ``__getattr__``: with
    one, every attribute read of every node would take Python's slow path (four times the
    cost of a slot read).
    """

    __slots__ = (
        "parent",
        "move_text",
        "move_number",
        "strength",
        "_nags",
        "_comments_before",
        "_comments_after",
        "_commands",
        "setup",
        "variations",
        "_line",
        "_column",
        "_offset",
        "_places",
    )
    _nags: list[int] | None
    _comments_before: list[str] | None
    _comments_after: list[str] | None
    _commands: list[Command] | None
    _line: int
    _column: int
    _offset: int  # reader-built nodes: where the move starts in the game's text
    _places: TextPlaces | None  # ... and how it becomes ``line``/``column`` (None: done)

    def __init__(
        self,
        move_text: str | None = None,
        *,
        parent: GameNode | None = None,
        move_number: str | None = None,
        strength: str | None = None,
        nags: list[int] | None = None,
        comments_before: list[str] | None = None,
        comments_after: list[str] | None = None,
        commands: list[Command] | None = None,
        setup: str | None = None,
        line: int = 0,
        column: int = 0,
    ) -> None:
        self.parent = parent
        self.move_text = move_text
        self.move_number = move_number
        self.strength = strength
        self._nags = nags
        self._comments_before = comments_before
        self._comments_after = comments_after
        self._commands = commands
        self.setup = setup
        self.variations: list[GameNode] = []
        self._line = line
        self._column = column
        self._places = None

    line: _Place = _Place()  # the move's line in its file (1-based; 0: unknown, as in code)
    column: _Place = _Place()  # and its column

    def _find_place(self) -> None:
        """``_line`` and ``_column`` of a reader-built node from its offset (once)."""
        assert self._places is not None
        self._line, self._column = self._places(self._offset)
        self._places = None

    def place(self) -> tuple[int, int]:
        """``(line, column)`` in one call (the JSON writer asks both of every node). O(log
        lines) the first time, then O(1)."""
        if self._places is not None:
            self._find_place()
        return self._line, self._column

    nags: _LazyList[int] = _LazyList()
    comments_before: _LazyList[str] = _LazyList()
    comments_after: _LazyList[str] = _LazyList()
    commands: _LazyList[Command] = _LazyList()

    def has_annotations(self) -> bool:
        """Whether the node has a NAG, a comment or a command (no list is made to find out:
        the writer's fast path for the bare moves that make most of a record). O(1)."""
        # ``not``s, not ``bool(... or ...)``: no call of ``bool`` (some 40% of the time)
        return not (
            not self._nags
            and not self._comments_before
            and not self._comments_after
            and not self._commands
        )

    # -- building -------------------------------------------------------------------------
    def add_variation(self, move_text: str, **fields: Any) -> GameNode:
        """Append a child for ``move_text`` (the first child is the main line); return it."""
        child = GameNode(move_text, parent=self, **fields)
        self.variations.append(child)
        return child

    def add_main_variation(self, move_text: str, **fields: Any) -> GameNode:
        """Insert a child for ``move_text`` as the new main line and return it."""
        child = GameNode(move_text, parent=self, **fields)
        self.variations.insert(0, child)
        return child

    def add_comment(self, text: str, *, before: bool = False) -> None:
        """Append a comment (after the move, or before it) and the commands embedded in it."""
        (self.comments_before if before else self.comments_after).append(text)
        self.commands.extend(commands_in(text))

    # -- navigation -----------------------------------------------------------------------
    def next(self) -> GameNode | None:
        """The main-line continuation, or ``None`` at the end of the line."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this node. O(plies), iterative."""
        return iter(mainline_nodes(self))

    def mainline_texts(self) -> list[str]:
        """Move texts of the main line after this node (``None`` moves never occur there)."""
        return [node.move_text or "" for node in self.mainline()]

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def root(self) -> GameNode:
        """The root of the tree (a ``Game`` when built by the reader)."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ply(self) -> int:
        """Number of moves from the root to this node (root: 0). O(depth)."""
        count = 0
        node = self
        while node.parent is not None:
            count += 1
            node = node.parent
        return count

    def is_main_variation(self) -> bool:
        """True when this node is the first child of its parent (or the root)."""
        return self.parent is None or self.parent.variations[0] is self

    def accept(self, visitor: GameVisitor[R], *, numbering: Numbering | None = None) -> R:
        """Walk the tree below this node in PDN text order, calling ``visitor`` (see
        ``GameVisitor``); returns ``visitor.end_game()``. ``numbering`` numbers the plies
        (default ``Numbering()``: move 1, White first; ``Numbering.of_game(game,
        variant.first_mover)`` reads the FEN tag). Iterative: no recursion limit. O(nodes).

        >>> from pdn.pdnfile.reader import read_game
        >>> from pdn.game.visitor import GameVisitor
        >>> class Moves(GameVisitor[list[str]]):
        ...     def begin_game(self, game): self.words = []
        ...     def visit_move(self, node, ply, number):
        ...         self.words.append(f"{number.label(resumed=ply == 1) or ''}{node.move_text}")
        ...     def begin_variation(self, node): self.words.append("(")
        ...     def end_variation(self, node): self.words.append(")")
        ...     def end_game(self): return self.words
        >>> read_game("1. 32-28 (1. 33-29) 19-23 *").accept(Moves())
        ['1.32-28', '(', '1.33-29', ')', '19-23']
        """
        numbering = numbering or Numbering()
        game = self if isinstance(self, Game) else None
        if game is not None:
            visitor.begin_game(game)
        walk_lines(self, visitor, numbering)
        if game is not None:
            visitor.visit_result(game.result)
        return visitor.end_game()

    def walk(self) -> Iterator[GameNode]:
        """Every node below this one, depth-first, main line before side lines. Iterative."""
        return iter(walk_nodes(self))

    # -- the resolved move and positions (from the game's one replay) ----------------------
    @property
    def move(self) -> Move | None:
        """The move played at this node as the rules engine resolved it
        (``pdn.engine.movegen.Move``; ``move_text`` is what the record says), ``None`` for the root,
        like python-chess's ``node.move``. From the game's cached replay, as ``position()`` (same
        cost; reading a game never replays it). A part of a capture written jump by jump gets the
        whole capture. Raises ``pdn.engine.errors.NotReplayedError`` (with the reason) when the
        replay did not play this node (its line stopped before or at it), ``TypeError`` for a node
        without a ``Game`` root.

        >>> from pdn.pdnfile.reader import read_game
        >>> game = read_game('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 *')
        >>> last = game.end()
        >>> last.move_text, last.move.path, last.move.captures
        ('28x19', (28, 19), (23,))
        >>> game.move is None
        True
        """
        if self.parent is None:
            return None
        return self._game().replayed().move_at(self)

    # -- positions (from the game's one replay) --------------------------------------------
    def position(self) -> Position:
        """The position this node's move is played from (the root: the start position), like
        python-chess's ``node.parent.board()``. From the game's cached replay
        (``Game.replayed()``; the first question replays the whole game once, then O(depth)).
        Raises ``pdn.engine.errors.NotReplayedError`` when the replay did not reach this node (its
        line stopped at an unplayable move or setup), ``TypeError`` for a node without a
        ``Game`` root.

        >>> from pdn.pdnfile.reader import read_game
        >>> game = read_game('[GameType "20"]\\n1. 32-28 19-23 *')
        >>> last = game.end()
        >>> last.position().turn, last.position().piece_at(19).name
        ('B', 'BLACK_MAN')
        >>> last.position_after().turn, last.position_after().piece_at(23).name
        ('W', 'BLACK_MAN')
        """
        return self._game().replayed().position_before(self)

    def position_after(self) -> Position:
        """The position after this node's move (the root: the start position), like
        python-chess's ``node.board()``; see ``position()`` for the cost and errors. A part
        of a capture written jump by jump gets the position after the whole capture."""
        return self._game().replayed().position_after(self)

    def _game(self) -> Game:
        root = self.root()
        if not isinstance(root, Game):
            raise TypeError("positions need the node to be in a Game (its root)")
        return root

    # -- content equality -----------------------------------------------------------------
    def _own_content(self) -> tuple[Any, ...]:
        return (
            self.move_text,
            self.move_number,
            self.strength,
            self.nags,
            self.comments_before,
            self.comments_after,
            self.commands,
            self.setup,
            len(self.variations),
        )

    def _same_tree(self, other: GameNode) -> bool:
        stack: list[tuple[GameNode, GameNode]] = [(self, other)]
        while stack:
            left, right = stack.pop()
            if left._own_content() != right._own_content():
                return False
            stack.extend(zip(left.variations, right.variations, strict=True))
        return True

    def same_record(self, other: GameNode) -> bool:
        """True when ``other`` holds the same record from here down: moves, numbers,
        strengths, NAGs, comments, commands, setups, variations (and for games tags and
        result); source places and reading findings are not compared. Iterative, O(nodes)."""
        if isinstance(other, Game) != isinstance(self, Game):
            return False
        return self._same_tree(other)

    def __repr__(self) -> str:
        return (
            f"<GameNode {self.move_number or ''}{self.move_text} at {self.line}:{self.column}, "
            f"{len(self.variations)} continuation(s)>"
        )


class Game(GameNode):
    """The root of a record: tags, result, reading findings, raw text and source.

    ``raw`` holds the game's text when it could not be parsed completely (never dropped).
    """

    __slots__ = ("tags", "result", "findings", "raw", "source", "_replayed")
    _replayed: tuple[tuple[str | None, str | None], Replay]  # set by ``replayed()``

    def __init__(
        self,
        tags: list[tuple[str, str]] | None = None,
        *,
        result: str | None = None,
        source: Source | None = None,
    ) -> None:
        super().__init__(None)
        self.tags: list[tuple[str, str]] = tags if tags is not None else []
        self.result = result
        self.findings: list[Finding] = []
        self.raw: str | None = None
        self.source = source if source is not None else Source()

    @property
    def headers(self) -> Mapping[str, str]:
        """Read-only mapping of tag name -> first value in the file. O(tags)."""
        first: dict[str, str] = {}
        for name, value in self.tags:
            first.setdefault(name, value)
        return MappingProxyType(first)

    def _own_content(self) -> tuple[Any, ...]:
        return (self.tags, self.result, *super()._own_content())

    def replayed(
        self,
        *,
        variant: Variant | str | None = None,
        rules: str | None = None,
        fresh: bool = False,
    ) -> Replay:
        """The game's replay (``pdn.arbiter.replay.replay``), made on the first call and kept: calls
        without arguments (and ``node.position()``) reuse the kept one, whatever it was made
        with; other arguments, or ``fresh=True`` after editing the tree, replay again and keep
        the new one. Cost: one replay of the game, then O(1)."""
        key = (variant if isinstance(variant, str) or variant is None else variant.name, rules)
        try:
            cached: tuple[tuple[str | None, str | None], Replay] | None = self._replayed
        except AttributeError:  # not replayed yet
            cached = None
        reuse = (variant is None and rules is None) or (cached is not None and cached[0] == key)
        if cached is not None and not fresh and reuse:
            return cached[1]
        replayed = cast("Replay", lent("Game.replayed")(self, variant, rules))
        self._replayed = (key, replayed)
        return replayed

    def __repr__(self) -> str:
        white = self.headers.get("White", "?")
        black = self.headers.get("Black", "?")
        where = f"{self.source.file}#{self.source.game}"
        return f"<Game {white} - {black} {self.result or ''} ({where})>"

    def __str__(self) -> str:
        """The game as PDN text, exactly as ``pdn.pdnfile.writer.write_game(game)`` writes it."""
        return cast(str, lent("Game.__str__")(self))

    def __rich__(self) -> GameView:
        """``rich.print(game)`` draws the game (``pdn.views.gameview.GameView``: one replay)."""
        return cast("GameView", lent("Game.__rich__")(self))

    # -- pickling: a flat node list, so deep trees never recurse --------------------------
    def __getstate__(self) -> dict[str, Any]:
        nodes: list[tuple[int, tuple[Any, ...]]] = []
        index = {id(self): -1}
        for node in self.walk():
            assert node.parent is not None
            index[id(node)] = len(nodes)
            nodes.append((index[id(node.parent)], _node_state(node)))
        return {
            "root": _node_state(self),
            "nodes": nodes,
            "tags": self.tags,
            "result": self.result,
            "findings": self.findings,
            "raw": self.raw,
            "source": self.source,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        Game.__init__(self, state["tags"], result=state["result"], source=state["source"])
        self.findings = state["findings"]
        self.raw = state["raw"]
        _restore_node(self, state["root"])
        built: list[GameNode] = []
        for parent_index, node_state in state["nodes"]:
            parent = self if parent_index < 0 else built[parent_index]
            node = GameNode(parent=parent)
            _restore_node(node, node_state)
            parent.variations.append(node)
            built.append(node)


#: What a pickled node keeps: its slots less the tree links (rebuilt from the flat list) and
#: the reader's place lookup (``line`` and ``column`` are kept as computed).
_NODE_FIELDS = tuple(
    {"_line": "line", "_column": "column"}.get(name, name)
    for name in GameNode.__slots__
    if name not in ("parent", "variations", "_offset", "_places")
)


def _node_state(node: GameNode) -> tuple[Any, ...]:
    return tuple(getattr(node, name) for name in _NODE_FIELDS)


def _restore_node(node: GameNode, state: tuple[Any, ...]) -> None:
    for name, value in zip(_NODE_FIELDS, state, strict=True):
        setattr(node, name, value)
