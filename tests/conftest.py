"""Shared test setup: the one path of the real-world corpus, and the ``slow`` marker.

``CORPUS`` is ``../shared/corpus`` next to the repository; tests that read it use the
``corpus`` fixture (or ``needs_corpus``) and skip, saying why, when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")


@pytest.fixture
def corpus() -> Path:
    """The real-world corpus folder (skips the test when it is absent)."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: deep perft and whole-corpus tests (deselect with -m 'not slow')"
    )
