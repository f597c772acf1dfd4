"""Alternative ground plates: floor that looks different and acts as open floor in every way."""

from __future__ import annotations

from ..kinds import Kind

PLATE = Kind(
    name="plate",
    doc='an alternative ground plate: drawn differently, open floor in every way',
    key='... plate',
    summary="an alternative ground plate: open floor",
    group="floor",
    glyph=lambda e: "...",
    rank=137,
)
