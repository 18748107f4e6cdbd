"""How sure a simulation's figures are: Wilson's interval of a rate, Newcombe's interval of
the difference between two rates measured on the same seeds (paired), the games a paired
comparison needs to find a given change, and the mean and spread of a measure."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: the normal quantile of a two-sided 95% interval, and of 80% power
Z95 = 1.959964
Z_POWER80 = 0.841621


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a rate of k out of n (Wilson's score interval); (0, 1) for n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return min(lo, p), max(hi, p)          # (rounding never leaves the rate outside)


@dataclass(frozen=True)
class Paired:
    """Two rates on the same n seeds: `both` seeds where the event came in both, `first_only`
    in the first only, `second_only` in the second only, `neither` in none."""

    both: int
    first_only: int
    second_only: int
    neither: int

    @property
    def n(self) -> int:
        return self.both + self.first_only + self.second_only + self.neither

    @property
    def difference(self) -> float:
        """The first rate less the second."""
        return (self.first_only - self.second_only) / self.n if self.n else 0.0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The 95% interval of the difference: Newcombe's method 10 (1998, for paired data),
        which joins the two rates' Wilson intervals with the correlation the pairing brings."""
        n = self.n
        if n == 0:
            return -1.0, 1.0
        a, b, c, d = self.both, self.first_only, self.second_only, self.neither
        p1, p2 = (a + b) / n, (a + c) / n
        l1, u1 = wilson(a + b, n, z)
        l2, u2 = wilson(a + c, n, z)
        margins = (a + b) * (c + d) * (a + c) * (b + d)
        # the correlation of the pairs, a positive one lessened by n/2 as Newcombe corrects it
        # (without it, seeds that all agree would give an interval of no width)
        product = a * d - b * c
        agree: float = product - n / 2 if product > n / 2 else min(product, 0)
        phi = agree / math.sqrt(margins) if margins else 0.0
        below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
        above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
        diff = p1 - p2
        return max(-1.0, diff - below), min(1.0, diff + above)

    def games_to_find(self, change: float = 0.05) -> int:
        """About how many seeds a side a paired comparison needs to find a change of `change`
        in the rate (a two-sided 5% test with 80% power), from the spread of the differences
        seen; where no seed differed, as if the two were played on independent seeds."""
        n = self.n
        if n and self.first_only + self.second_only:
            variance = (self.first_only + self.second_only) / n - self.difference ** 2
        else:
            p = (2 * self.both + self.first_only + self.second_only) / (2 * n) if n else 0.5
            p = min(0.95, max(0.05, p))
            variance = 2 * p * (1 - p)
        return max(1, math.ceil((Z95 + Z_POWER80) ** 2 * variance / change ** 2))


def spread(values: Sequence[float]) -> dict[str, float]:
    """The mean, standard deviation (n - 1), lowest, 10th and 90th percentiles and highest."""
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        return {}
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return {"mean": mean, "sd": sd, "min": xs[0], "p10": _quantile(xs, 0.1), "p90": _quantile(xs, 0.9),
            "max": xs[-1]}


def _quantile(xs: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated between neighbours."""
    at = q * (len(xs) - 1)
    lo = math.floor(at)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (at - lo)
