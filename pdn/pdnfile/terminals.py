"""The grammar's terminals as the reader's fast path (``pdn.pdnfile.fastpath``) matches them:
each terminal of ``grammars/pdn.lark`` with its regular expression, in the order lark's lexer
tries them (priority, then longest pattern), and the terminals lark ignores. Kept here so that
reading a file whose games all take the fast path never imports lark nor builds its parser
(0.04 s of CPU at the first game). ``tests/test_terminals.py`` checks that this is exactly what
lark makes of the grammar, and prints the new table when the grammar changes.
"""

from __future__ import annotations

#: (terminal name, regular expression), in lark's match order.
TERMINALS: tuple[tuple[str, str], ...] = (
    (
        "RESULT",
        "(?=[012*])(?<![\\w\\/:.-])(?:2-0|0-2|1-1|1-0|0-1|0-0|1\\/2-1\\/2|1:0|0:1|1\\/2:1\\/2|0:0|\\*)(?![\\w\\/.:-])",
    ),
    ("MOVENUMBER", "\\d+\\.(?:\\.\\.?)?"),
    (
        "MOVE",
        "(?:\\d{1,2}(?:[-xX:](?: (?=\\d(?!\\d)))?\\d{1,2})+|\\d{4}(?![\\d.])|[a-lA-L](?:1[0-2]|[1-9])(?:(?:[-xX:][a-lA-L](?:1[0-2]|[1-9]))+|[a-lA-L](?:1[0-2]|[1-9]))|[a-lA-L][a-lA-L](?:1[0-2]|[1-9]))",
    ),
    (
        "TAG",
        '\\[[^\\S\r\n]*(?:[^\\W\\d]|&#?\\w+;)(?:\\w|&#?\\w+;)*(?:(?:[^\\S\r\n]+(?:\\w|&#?\\w+;)+)+(?=[^\\S\r\n]*"))?(?:[^\\S\r\n]*"[^"\r\n]*"[^\\S\r\n]*\\]|[^\\]\r\n]*\\]|[^\\]\r\n]*(?=[\r\n]|$))',
    ),
    ("STRENGTH", "[!?]+|\\([!?]+\\)|(?<=[\\da-lA-L])\\*"),
    ("ESCAPE_LINE", "(?m:^)%[^\r\n]*"),
    ("SETUP", "\\/[^\\/]*\\/"),
    ("COMMENT", "\\{[^}]*\\}"),
    ("LINE_COMMENT", ";[^\r\n]*"),
    ("WHITESPACE", "[\\s\ufeff]+"),
    ("NAG", "\\$\\d+"),
    ("ELLIPSIS", "\\.{1,3}"),
    ("UNKNOWN_MOVE", "-[ \t]?-"),
    ("LPAR", "\\("),
    ("RPAR", "\\)"),
)
#: The terminals lark skips between tokens (``%ignore``).
IGNORED: frozenset[str] = frozenset({"WHITESPACE"})

Item = tuple[str, str, int]  # (terminal name, text, char offset in the span)
