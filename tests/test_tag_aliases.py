"""``tag_entry``: the first tag under PDN's name, else (``aliases=True``) under each dialect name
in ``TAG_ALIASES`` order, any case; checked against that definition on random headers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pdn.game.tags import TAG_ALIASES, tag_entry

NAMES = ("White", "Black", "Event", "Date", "Result", "GameType", "Round")
SPELLINGS = sorted({spelling for name in NAMES for spelling in TAG_ALIASES.get(name, (name,))})


def by_definition(tags: list[tuple[str, str]], name: str) -> tuple[str, str] | None:
    for alias in TAG_ALIASES.get(name, (name,)):
        for tag, value in tags:
            if tag.lower() == alias.lower():
                return tag, value
    return None


def headers(name: str) -> st.SearchStrategy[tuple[str, list[tuple[str, str]]]]:
    """``name`` and tags under its spellings (any case) and other names."""
    spellings = st.sampled_from((*TAG_ALIASES[name], "Site", SPELLINGS[0]))
    cased = spellings.flatmap(lambda tag: st.sampled_from((tag, tag.lower(), tag.upper())))
    return st.tuples(st.just(name), st.lists(st.tuples(cased, st.text(max_size=2)), max_size=8))


@given(st.sampled_from(NAMES).flatmap(headers))
def test_the_first_tag_under_pdn_s_name_then_each_dialect_name(
    header: tuple[str, list[tuple[str, str]]],
) -> None:
    name, tags = header
    assert len(TAG_ALIASES[name]) > 1  # the names tested have dialect spellings
    assert tag_entry(tags, name, aliases=True) == by_definition(tags, name)
    spelled = next(((tag, value) for tag, value in tags if tag.lower() == name.lower()), None)
    assert tag_entry(tags, name) == spelled
