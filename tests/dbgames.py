"""Small PDN texts shared by the database-verb tests (select, index, search, dedupe, stats)."""

from __future__ import annotations

#: Three International games: 1 and 2 reach one position by two move orders (ply 3, Black
#: to move); 1 captures two men at ply 5; 3 has an illegal move at ply 3.
GAMES = """\
[Event "NK 1999"]
[Date "1999.05.02"]
[White "Sijbrands, Ton"]
[Black "Baljakin, Aleksandr"]
[Result "2-0"]
[GameType "20"]

1. 32-28 16-21 2. 33-29 17-22 3. 28x26 2-0

[Event "Open 2004"]
[Date "2004.10.27"]
[White "Alexander Schwarzman"]
[Black "T\u00f3n Sijbrands"]
[Result "1-1"]
[GameType "20"]

1. 33-29 16-21 2. 32-28 1-1

[Event "Blunders"]
[White "X"]
[Black "Y"]
[Result "0-2"]
[GameType "20"]

1. 32-27 19-23 2. 46-41 0-2
"""

#: The position games 1 and 2 reach after ply 3 (Black to move).
SHARED_FEN = "B:W28,29,31,34-50:B1-15,17-21"
