"""Dice statistics: were a player's dice fair, across one log or many?

Per player and kind of roll ("2d6", "1d6"), per roll name (the dice button: "IFT", "TH",
"Combat") and per kind for everyone, this counts rolls, averages faces and totals, builds the
face histogram and runs a chi-square goodness-of-fit test against fair dice. Testing many groups
finds a small p-value by chance alone, so each family of groups (per player, per roll name, for
everyone) has its p-values corrected for the number of groups tested in it, by Holm's step-down
method (Holm 1979; it holds the family-wise error rate like Bonferroni's and rejects at least as
often): `p_adjusted`. The
chi-square survival function is computed here (regularized upper incomplete gamma function,
series and continued fraction as in Numerical Recipes, 3rd ed., section 6.2) so that no
numerical library is needed at run time.

A small p-value says the faces are unlikely under fair dice; it is a statistic, not proof of
cheating (VASSAL's dice are server-less and a log can be edited, but streaks happen).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

# Rolls beyond these sizes are not dice anyone plays with; they are rejected rather than
# letting a hostile log allocate huge histograms.
MAX_SIDES = 1000
MAX_DICE = 100
MAX_TOTAL_CELLS = 10_000   # largest sum distribution the totals test builds
MIN_EXPECTED = 5.0         # the usual lower bound on expected counts for the chi-square test

_EPS = 1e-15
_FPMIN = 1e-300
_MAX_ITERATIONS = 100_000


# --- the chi-square survival function -----------------------------------------------------

def _gamma_p_series(a: float, x: float) -> float:
    """P(a, x) by its series; converges quickly for x < a + 1 (NR3 6.2.5)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITERATIONS):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            return total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    raise ArithmeticError(f"incomplete gamma series did not converge for a={a}, x={x}")


def _gamma_q_continued_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz); converges for x >= a + 1 (NR3 6.2.7)."""
    b = x + 1.0 - a
    c = 1.0 / _FPMIN
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = b + an / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
    raise ArithmeticError(f"incomplete gamma fraction did not converge for a={a}, x={x}")


def gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if not (a > 0 and math.isfinite(a)) or not (x >= 0) or math.isnan(x):
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, not a={a}, x={x}")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_p_series(a, x))
    return min(1.0, _gamma_q_continued_fraction(a, x))


def chi2_sf(statistic: float, df: int | float) -> float:
    """P(X >= statistic) for X chi-square distributed with `df` degrees of freedom."""
    if not df > 0:
        raise ValueError(f"chi-square needs df > 0, not {df}")
    if statistic <= 0:
        return 1.0
    return gamma_q(df / 2.0, statistic / 2.0)


# --- rolls and their statistics -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One roll as a chat report shows it.

    `faces` are the raw single dice when the report lists them (empty when it shows only a
    total); `total` is their sum, or the total the report gives with the button's known
    modifiers taken off (None when there is none). The statistics use the faces whenever they
    are known; a total still holding an unknown modifier can fall out of range, and such a roll
    is listed as not counted.
    `player` is the name or side the report shows (None when it shows none), never an id.
    `n_sides` is 0 when unknown (a log read without its module).
    """

    step: int | None
    player: str | None
    dice_name: str
    n_dice: int
    n_sides: int
    faces: tuple[int, ...]
    total: int | None
    log: str | None = None

    @property
    def kind(self) -> str:
        """'2d6' for two six-sided dice."""
        return f"{self.n_dice}d{self.n_sides}"

    def problem(self) -> str | None:
        """Why this roll cannot be counted, or None when it can."""
        if not 1 <= self.n_dice <= MAX_DICE:
            return f"{self.n_dice} dice is outside 1..{MAX_DICE}"
        if self.n_sides == 0:
            return "number of sides unknown (no module, and the button name does not say)"
        if not 2 <= self.n_sides <= MAX_SIDES:
            return f"{self.n_sides} sides is outside 2..{MAX_SIDES}"
        if self.faces:
            if len(self.faces) != self.n_dice:
                return f"{len(self.faces)} faces reported for {self.n_dice} dice"
            bad = [f for f in self.faces if not 1 <= f <= self.n_sides]
            if bad:
                return f"face {bad[0]} is outside 1..{self.n_sides}"
        elif self.total is None:
            return "neither faces nor a total reported"
        elif not self.n_dice <= self.total <= self.n_dice * self.n_sides:
            return f"total {self.total} is impossible for {self.kind} (modified total?)"
        return None


@dataclass(frozen=True, slots=True)
class ChiSquareTest:
    """A chi-square goodness-of-fit test of observed counts against fair dice."""

    basis: str            # "faces": single dice against 1/n each; "totals": sums against their law
    statistic: float
    df: int
    p_value: float
    min_expected: float   # below MIN_EXPECTED the chi-square approximation is rough

    @property
    def reliable(self) -> bool:
        return self.min_expected >= MIN_EXPECTED

    def to_dict(self) -> dict[str, Any]:
        return {
            "basis": self.basis,
            "statistic": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "min_expected": self.min_expected,
            "reliable": self.reliable,
        }


def chi_square_test(observed: list[int], probabilities: list[float], basis: str) -> ChiSquareTest | None:
    """Pearson's test of `observed` counts against cell `probabilities`; None with < 2 cells or no data."""
    n = sum(observed)
    cells = [(o, p) for o, p in zip(observed, probabilities, strict=True) if p > 0]
    if n == 0 or len(cells) < 2:
        return None
    statistic = sum((o - n * p) ** 2 / (n * p) for o, p in cells)
    df = len(cells) - 1
    return ChiSquareTest(
        basis=basis,
        statistic=statistic,
        df=df,
        p_value=chi2_sf(statistic, df),
        min_expected=min(n * p for _, p in cells),
    )


def sum_distribution(n_dice: int, n_sides: int) -> list[float]:
    """P(total = n_dice + i) for i = 0 .. n_dice*(n_sides-1), fair dice."""
    dist = [1.0]
    for _ in range(n_dice):
        width = len(dist) + n_sides - 1
        out = [0.0] * width
        window = 0.0
        for i in range(width):       # out[i] = sum(dist[i-n_sides+1 .. i]) / n_sides
            if i < len(dist):
                window += dist[i]
            if i - n_sides >= 0:
                window -= dist[i - n_sides]
            out[i] = window / n_sides
        dist = out
    return dist


@dataclass(frozen=True, slots=True)
class DiceGroupStats:
    """The statistics of one kind of roll, for one player or (player=None, everyone=True) all."""

    player: str | None
    everyone: bool
    n_dice: int
    n_sides: int
    names: tuple[str, ...]            # the dice buttons that made these rolls
    rolls: int
    dice_rolled: int                  # single dice whose faces are known
    face_counts: tuple[int, ...]      # face_counts[k] = how often face k+1 came up
    mean_face: float | None
    mean_total: float | None
    total_counts: tuple[tuple[int, int], ...]   # (total, count), totals that occurred, ascending
    test: ChiSquareTest | None
    roll_name: str | None = None
    """The roll's name (its dice button) for a group of one roll name, None otherwise."""
    p_adjusted: float | None = None
    """The test's p-value corrected for the groups tested in its family (`CORRECTION`)."""

    @property
    def kind(self) -> str:
        return f"{self.n_dice}d{self.n_sides}"

    @property
    def expected_face(self) -> float:
        return (self.n_sides + 1) / 2

    @property
    def expected_total(self) -> float:
        return self.n_dice * (self.n_sides + 1) / 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "everyone": self.everyone,
            "dice": self.kind,
            "n_dice": self.n_dice,
            "n_sides": self.n_sides,
            "names": list(self.names),
            "rolls": self.rolls,
            "dice_rolled": self.dice_rolled,
            "face_counts": list(self.face_counts),
            "mean_face": self.mean_face,
            "expected_face": self.expected_face,
            "mean_total": self.mean_total,
            "expected_total": self.expected_total,
            "total_counts": [[t, c] for t, c in self.total_counts],
            "test": None if self.test is None else self.test.to_dict(),
            "roll_name": self.roll_name,
            "p_adjusted": self.p_adjusted,
        }


CORRECTION = "holm"
"""How p-values are corrected for the number of groups tested: Holm's step-down method."""


def holm(p_values: list[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: the i-th smallest of m is multiplied by
    m - i + 1, made non-decreasing, and capped at 1."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    out = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        out[i] = running
    return out


def _corrected(groups: list[DiceGroupStats]) -> tuple[DiceGroupStats, ...]:
    tested = [i for i, g in enumerate(groups) if g.test is not None]
    adjusted = holm([groups[i].test.p_value for i in tested])  # type: ignore[union-attr]
    out = list(groups)
    for i, p in zip(tested, adjusted, strict=True):
        out[i] = replace(groups[i], p_adjusted=p)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RejectedRoll:
    """A roll left out of the statistics, and why."""

    log: str | None
    step: int | None
    dice_name: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"log": self.log, "step": self.step, "dice_name": self.dice_name, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class DiceStats:
    """Dice statistics per player and kind of roll, then per kind of roll for all players."""

    players: tuple[DiceGroupStats, ...]
    everyone: tuple[DiceGroupStats, ...]
    logs: tuple[str, ...]
    rejected: tuple[RejectedRoll, ...] = ()
    by_name: tuple[DiceGroupStats, ...] = ()
    """One group per roll name and kind, all players together."""
    correction: str = CORRECTION

    def to_dict(self) -> dict[str, Any]:
        return {
            "logs": list(self.logs),
            "players": [g.to_dict() for g in self.players],
            "everyone": [g.to_dict() for g in self.everyone],
            "by_name": [g.to_dict() for g in self.by_name],
            "correction": {"method": self.correction,
                           "tests": {"players": _tests(self.players), "by_name": _tests(self.by_name),
                                     "everyone": _tests(self.everyone)}},
            "rejected": [r.to_dict() for r in self.rejected],
        }


def _tests(groups: tuple[DiceGroupStats, ...]) -> int:
    """How many groups of a family were tested (the m of the correction)."""
    return sum(1 for g in groups if g.test is not None)


def _group(player: str | None, everyone: bool, rolls: list[DiceRoll], roll_name: str | None = None) -> DiceGroupStats:
    n_dice, n_sides = rolls[0].n_dice, rolls[0].n_sides
    face_counts = [0] * n_sides
    totals: dict[int, int] = {}
    face_sum = 0
    dice_rolled = 0
    names: list[str] = []
    for roll in rolls:
        if roll.dice_name not in names:
            names.append(roll.dice_name)
        for face in roll.faces:
            face_counts[face - 1] += 1
        face_sum += sum(roll.faces)
        dice_rolled += len(roll.faces)
        total = sum(roll.faces) if roll.faces else roll.total
        assert total is not None  # DiceRoll.problem() rejected rolls without either
        totals[total] = totals.get(total, 0) + 1
    total_rolls = sum(totals.values())
    test: ChiSquareTest | None
    if dice_rolled:
        test = chi_square_test(face_counts, [1.0 / n_sides] * n_sides, "faces")
    elif n_dice * (n_sides - 1) + 1 <= MAX_TOTAL_CELLS:
        law = sum_distribution(n_dice, n_sides)
        observed = [totals.get(n_dice + i, 0) for i in range(len(law))]
        test = chi_square_test(observed, law, "totals")
    else:
        test = None
    return DiceGroupStats(
        player=player,
        everyone=everyone,
        n_dice=n_dice,
        n_sides=n_sides,
        names=tuple(names),
        rolls=len(rolls),
        dice_rolled=dice_rolled,
        face_counts=tuple(face_counts),
        mean_face=face_sum / dice_rolled if dice_rolled else None,
        mean_total=sum(t * c for t, c in totals.items()) / total_rolls if total_rolls else None,
        total_counts=tuple(sorted(totals.items())),
        test=test,
        roll_name=roll_name,
    )


def dice_stats(rolls: Iterable[DiceRoll]) -> DiceStats:
    """Statistics of `rolls` (from one log or many), grouped by player and by kind of roll.

    Groups come in order of first appearance; rolls that cannot be counted are listed in
    `rejected` with the reason, never dropped silently. Each family's p-values are corrected
    for the groups it tests (`CORRECTION`).
    """
    by_player: dict[tuple[str | None, int, int], list[DiceRoll]] = {}
    by_kind: dict[tuple[int, int], list[DiceRoll]] = {}
    by_name: dict[tuple[str, int, int], list[DiceRoll]] = {}
    logs: list[str] = []
    rejected: list[RejectedRoll] = []
    for roll in rolls:
        if roll.log is not None and roll.log not in logs:
            logs.append(roll.log)
        reason = roll.problem()
        if reason is not None:
            rejected.append(RejectedRoll(roll.log, roll.step, roll.dice_name, reason))
            continue
        by_player.setdefault((roll.player, roll.n_dice, roll.n_sides), []).append(roll)
        by_kind.setdefault((roll.n_dice, roll.n_sides), []).append(roll)
        by_name.setdefault((roll.dice_name, roll.n_dice, roll.n_sides), []).append(roll)
    return DiceStats(
        players=_corrected([_group(key[0], False, group) for key, group in by_player.items()]),
        everyone=_corrected([_group(None, True, group) for group in by_kind.values()]),
        logs=tuple(logs),
        rejected=tuple(rejected),
        by_name=_corrected([_group(None, True, group, roll_name=key[0]) for key, group in by_name.items()]),
    )
