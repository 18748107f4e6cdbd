"""Japan's National Advantages of Revised (rulesets/aarhe/lhtr/advantages_japan.rules), each an
option, played through the rules: Banzai Attack (infantry attack one higher in a battle's first
round) and Long Lance Torpedoes (submarines attack one higher in a battle's first round)."""

from __future__ import annotations

import pytest

from tests.aarhe.play import at_aarhe
from tests.lhtr.play import destroyed, fight, rolls, situation


@pytest.mark.parametrize(("banzai", "lost"), [(True, "US Infantry"), (False, "Japan Infantry")])
def test_banzai_japanese_infantry_attack_on_two_in_the_first_round(banzai: bool, lost: str) -> None:
    g, _ = situation("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "US", "China", 1)],
                     step="conduct_combat", banzai_attack=banzai)
    # round 1: the attacker rolls 2, the defender 6; round 2 (if any): 6 against 1
    fight(g, "China", [2, 6, 6, 1])
    assert destroyed(g) == [lost]


def test_the_banzai_is_for_the_first_round_only() -> None:
    g, _ = situation("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "US", "China", 1)],
                     step="conduct_combat", banzai_attack=True)
    fight(g, "China", [6, 6, 2, 1])          # round 2: the 2 misses, the defender's 1 hits
    assert destroyed(g) == ["Japan Infantry"]


def test_aarhe_keeps_the_banzai() -> None:
    g, _ = at_aarhe("Japan", [("Infantry", "Japan", "China", 1), ("Infantry", "US", "China", 1)],
                    step="conduct_combat", banzai_attack=True)
    fight(g, "China", [2, 6, 6, 1])
    assert destroyed(g) == ["US Infantry"]


@pytest.mark.parametrize(("long_lance", "lost"), [(True, "US Transport"), (False, "Japan Submarine")])
def test_long_lance_japanese_submarines_attack_on_three_in_the_first_round(long_lance: bool, lost: str) -> None:
    g, _ = situation("Japan", [("Submarine", "Japan", "SZ 61", 1), ("Transport", "US", "SZ 61", 1)],
                     step="conduct_combat", long_lance=long_lance)
    # the submarine's first strike rolls 3; if the transport is left, it rolls 1
    fight(g, "SZ 61", [3, 1])
    assert destroyed(g) == [lost]
    assert rolls(g)[0] == [3]


def test_long_lance_is_japans_alone() -> None:
    g, _ = situation("Germany", [("Submarine", "Germany", "SZ 7", 1), ("Transport", "UK", "SZ 7", 1)],
                     step="conduct_combat", long_lance=True)
    fight(g, "SZ 7", [3, 1])
    assert destroyed(g) == ["Germany Submarine"]
