"""``__reduce__`` for the value classes of the engine and the replay, so ``pickle`` and
``copy`` work on them in both builds: by default both make the object without ``__init__``
and then set its fields, which a frozen dataclass refuses in the compiled build (its fields
are read-only there) and an immutable ``Position`` refuses in both. Rebuilt through
``__init__`` instead, an object also gets back what its ``__post_init__`` derives.
"""

from __future__ import annotations

import dataclasses
from typing import Any


def by_fields(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``value.__reduce__()`` for a dataclass instance whose ``__init__`` takes its init
    fields in their order: its class and those fields' values. O(fields)."""
    fields = dataclasses.fields(value)
    return type(value), tuple(getattr(value, field.name) for field in fields if field.init)
