"""Hypothesis strategies for game records, shared by the reader, writer and CLI tests.

``games()`` draws records the reader could have produced from some PDN text: tags with odd
characters (quotes, backslashes, brackets, accents), comments (with embedded ``[%commands]``),
NAGs, strengths, setups, move numbers, variations nested in any shape, and a result. Trees
are built from a flat list of (parent, move) draws, so no recursion is involved.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from pdn.game.record import Game, GameNode

TAG_NAMES = (
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "GameType",
    "FEN",
    "Annotator",
    "WhiteElo",
    "X_custom",
    "P1",
)
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
STRENGTHS = ("!", "?", "!!", "??", "!?", "?!", "(?)", "(!?)")
COMMANDS = ("[%clock w0:10:00 B0:09:58]", "[%clk 1:55:21]", "[%eval -0.48]", "[%depth 12]")

_TEXT_ALPHABET = st.characters(
    codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="{}"
)


def tag_names() -> st.SearchStrategy[str]:
    """Standard names and user-defined identifiers (``[A-Z][A-Za-z0-9_]*``)."""
    return st.one_of(
        st.sampled_from(TAG_NAMES),
        st.from_regex(r"[A-Z][A-Za-z0-9_]{0,12}", fullmatch=True),
    )


def tag_values() -> st.SearchStrategy[str]:
    """Printable values with quotes, backslashes, brackets and non-ASCII letters (not both
    a quote and ``]``: the reader's TAG token cannot tell where such a value ends)."""
    odd = st.sampled_from(['"', "\\", "[", "]", "C:\\nemesis", "Fryslân", "Шашки", "%", ";", " "])
    plain = st.text(_TEXT_ALPHABET, max_size=20)
    values = st.lists(st.one_of(odd, plain), max_size=4).map("".join)
    return values.filter(lambda value: not ('"' in value and "]" in value))


def comments(commands: bool = True) -> st.SearchStrategy[str]:
    """Comment texts, some spanning lines, some carrying ``[%commands]``; a text with ``}``
    (only a ``;`` comment can hold one) has no line break."""
    words = st.one_of(
        st.text(_TEXT_ALPHABET, min_size=1, max_size=12),
        st.sampled_from(COMMANDS if commands else ("clk",)),
        st.sampled_from(["(21-18 migliore)", "32-28!", "1-0", "*", "$5", "%", ";", "\n", "  "]),
    )
    braced = st.lists(words, max_size=6).map(" ".join)
    line_comment = st.text(_TEXT_ALPHABET, max_size=10).map(lambda text: text + "}")
    return st.one_of(braced, line_comment)


def numeric_moves() -> st.SearchStrategy[str]:
    """``32-28``, ``28x19``, ``47x38x24x13x36`` (squares 1..50)."""
    square = st.integers(1, 50).map(str)
    plain = st.tuples(square, square).filter(lambda pair: pair[0] != pair[1]).map("-".join)
    capture = st.lists(square, min_size=2, max_size=5).map("x".join)
    return st.one_of(plain, capture)


def algebraic_moves() -> st.SearchStrategy[str]:
    """``c3-d4``, ``c3:e5``, ``a3xc5xe7`` (8x8 squares)."""
    square = st.tuples(st.sampled_from("abcdefgh"), st.integers(1, 8)).map(
        lambda pair: f"{pair[0]}{pair[1]}"
    )
    plain = st.tuples(square, square).map("-".join)
    capture = st.tuples(st.sampled_from("x:"), st.lists(square, min_size=2, max_size=4)).map(
        lambda pair: pair[0].join(pair[1])
    )
    return st.one_of(plain, capture)


def move_numbers() -> st.SearchStrategy[str | None]:
    """``None`` (no number written), ``N.`` or ``N...``."""
    number = st.integers(1, 300)
    return st.one_of(st.none(), number.map(lambda n: f"{n}."), number.map(lambda n: f"{n}..."))


def fens() -> st.SearchStrategy[str]:
    """Setup FEN strings in the shapes seen in files (ranges, kings, algebraic, ``H0:F1``)."""
    return st.sampled_from(
        [
            "W:W31-50:B1-20",
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
            "W:Wa1,c1,e1,g1:Bb8,d8,f8,h8",
            "W:W21,22,23:B1,2,3:H0:F1",
            "B::",
        ]
    )


@st.composite
def nodes(draw: st.DrawFn, moves: st.SearchStrategy[str]) -> dict[str, object]:
    """The fields of one move node (all optional parts drawn sparsely)."""
    return {
        "move_text": draw(moves),
        "move_number": draw(move_numbers()),
        "strength": draw(st.none() | st.sampled_from(STRENGTHS)),
        "nags": draw(st.lists(st.integers(0, 255), max_size=2)),
        "comments_before": draw(st.lists(comments(), max_size=1)),
        "comments_after": draw(st.lists(comments(), max_size=2)),
        "setup": draw(fens()) if draw(st.integers(0, 9)) == 0 else None,
    }


def build_node(parent: GameNode, fields: dict[str, Any]) -> GameNode:
    """Attach a child to ``parent`` from ``nodes()`` fields, commands derived from comments.

    Comments before a move are kept only where PDN text can say so: on the first move of a
    line or after a move number (elsewhere they would belong to the previous move)."""
    first_in_line = parent.parent is None or bool(parent.variations)
    child = parent.add_variation(
        fields["move_text"],
        move_number=fields["move_number"],
        strength=fields["strength"],
        nags=list(fields["nags"]),
        setup=fields["setup"],
    )
    if first_in_line or child.move_number is not None:
        for text in fields["comments_before"]:
            child.add_comment(text, before=True)
    for text in fields["comments_after"]:
        child.add_comment(text)
    return child


@st.composite
def games(draw: st.DrawFn, max_nodes: int = 30) -> Game:
    """A whole record: tags, header comments, a move tree of up to ``max_nodes`` moves, and
    a result (or none)."""
    tags = draw(st.lists(st.tuples(tag_names(), tag_values()), max_size=8))
    result = draw(st.none() | st.sampled_from(RESULTS))
    if not tags and result is None:
        result = "*"
    game = Game(tags, result=result)
    if tags:  # comments among the tags; the reader derives no commands from these
        game.comments_before.extend(draw(st.lists(comments(commands=False), max_size=2)))
    moves = draw(st.sampled_from([numeric_moves(), algebraic_moves()]))
    tree: list[GameNode] = [game]
    for fields in draw(st.lists(nodes(moves), max_size=max_nodes)):
        # Mostly extend a line; sometimes branch from an earlier node (a variation).
        branch = draw(st.integers(0, 4)) == 0
        parent_index = draw(st.integers(0, len(tree) - 1)) if branch else len(tree) - 1
        tree.append(build_node(tree[parent_index], fields))
    if len(tree) == 1:  # no moves: the text may still hold comments and a setup
        for text in draw(st.lists(comments(), max_size=2)):
            game.add_comment(text)
        game.setup = draw(st.none() | fens())
    return game
