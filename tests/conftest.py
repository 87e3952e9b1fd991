"""Shared test setup: the one path of the real-world corpus, and the ``slow`` marker.

``CORPUS`` is ``../shared/corpus`` next to the repository; tests that read it use the
``corpus`` fixture (or ``needs_corpus``) and skip, saying why, when it is absent.

Hypothesis runs derandomized by default, so a CI run is repeatable: the fuzzers try the
same examples every time. ``HYPOTHESIS_PROFILE=explore pytest`` draws fresh examples, and
``EXPLORE_SCALE`` times as many in every fuzz test (each states its budget as
``max_examples=budget(N)``), to hunt for new failures; pin each one found with ``@example``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

#: How many times its own budget each fuzz test tries under the ``explore`` profile.
EXPLORE_SCALE = 10
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "repeatable")
settings.register_profile("repeatable", derandomize=True)
settings.register_profile(
    "explore",
    derandomize=False,
    max_examples=EXPLORE_SCALE * settings.get_profile("default").max_examples,
)
settings.load_profile(PROFILE)


def budget(examples: int) -> int:
    """A fuzz test's ``max_examples``: ``examples``, or ``EXPLORE_SCALE`` times as many under
    the ``explore`` profile (an explicit ``max_examples`` overrides any profile's own)."""
    return examples * EXPLORE_SCALE if PROFILE == "explore" else examples


CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")


@pytest.fixture
def corpus() -> Path:
    """The real-world corpus folder (skips the test when it is absent)."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``pdn ARGV...`` run in this process: its exit code, stdout and stderr."""
    from pdn.cli.main import main

    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: deep perft and whole-corpus tests (deselect with -m 'not slow')"
    )
