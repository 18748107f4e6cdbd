"""Seeded dice of any size.

The generator is SplitMix64: its whole state is one integer that lives inside the game state,
so copying a state copies its dice, and a game's seed and actions replay it exactly, on any
Python version.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Spread a small player-typed seed over the 64-bit state."""
    _, out = next_u64((seed * GOLDEN) & MASK)
    return out


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; returns (new state, 64 random bits)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def roll(state: int, n: int, sides: int) -> tuple[int, list[int]]:
    """Roll `n` dice of `sides` faces (1..sides). Returns (new state, faces)."""
    if n < 0:
        raise ValueError(f"cannot roll {n} dice")
    if sides < 2:
        raise ValueError(f"a die needs at least 2 sides, not {sides}")
    faces = []
    for _ in range(n):
        state = (state + GOLDEN) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        # the 64-bit value's modulo bias is below 1e-17 for any board-game die
        faces.append((z ^ (z >> 31)) % sides + 1)
    return state, faces
