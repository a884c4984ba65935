"""Rewards of a finished hand per seat, shared by the PettingZoo env and the OpenSpiel game."""

from __future__ import annotations


def side_rewards(team_of: tuple[int, ...], totals: list[int]) -> list[float]:
    """Per seat: its side's hand total minus the mean of the other sides' totals (points).

    With equal sides the rewards add up to 0."""
    sides = len(totals)
    whole = sum(totals)
    return [float(totals[t] - (whole - totals[t]) / (sides - 1)) for t in team_of]
