"""The audit takes the plies variant inference replayed instead of resolving them again: on
the corpus, what it hands over is exactly what a fresh replay gives, and the audit's findings
and boards are those of a replay that does no detection at all."""

from __future__ import annotations

import pytest
from conftest import CORPUS, needs_corpus

from pdn.arbiter.detect import detect_variant, detect_variant_replayed, start_position
from pdn.arbiter.replay import replay
from pdn.base.findings import Finding
from pdn.engine.resolve import resolve
from pdn.game.record import Game
from pdn.pdnfile.reader import read_games

#: Every n-th corpus game: enough variety (every file, every variant), a few seconds.
SAMPLE_EVERY = 5

pytestmark = needs_corpus


@pytest.fixture(scope="module")
def inferred_games() -> list[Game]:
    games = []
    for path in sorted(CORPUS.rglob("*.pdn")):
        for game in read_games(path):
            if game.source.game % SAMPLE_EVERY == 1 and detect_variant_replayed(game)[2]:
                games.append(game)
    assert len(games) > 300
    return games


def test_handed_plies_are_a_fresh_replay_of_the_chosen_variant(
    inferred_games: list[Game],
) -> None:
    for game in inferred_games:
        variant, findings, prefix = detect_variant_replayed(game)
        assert (variant, findings) == detect_variant(game)
        position = start_position(game, variant)
        nodes = list(game.mainline())
        for index, ply in enumerate(prefix):
            assert ply.node is nodes[index]
            assert ply.before == position or ply.node.setup
            resolution = resolve(ply.before, ply.text)
            assert (resolution.code, resolution.move) == (None, ply.move)
            assert ply.after == ply.before.play(ply.move)
            position = ply.after


def test_audit_with_handed_plies_equals_audit_without_detection(
    inferred_games: list[Game],
) -> None:
    def shown(findings: list[Finding]) -> list[Finding]:
        return [finding for finding in findings if finding.code != "variant"]

    for game in inferred_games:
        reused = replay(game)
        fresh = replay(game, variant=reused.variant, exact=True)  # no detection, no hand-over
        assert shown(reused.findings) == shown(fresh.findings), game.source
        assert reused.positions == fresh.positions
        assert reused.moves == fresh.moves
        assert (reused.stopped, reused.plies) == (fresh.stopped, fresh.plies)
