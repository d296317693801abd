"""Colours as colour-blind players see them, and how far apart two colours look (docs/ui.md, "Colours").

The colour science is ColorAide's (a dev dependency): Machado, Oliveira and
Fernandes (2009) at full severity, applied in linear sRGB, and CIEDE2000 in
CIELAB under D65. ``tests/test_colour_vision.py`` checks both against the
published matrices and Sharma's CIEDE2000 test data before it trusts them.
"""

from __future__ import annotations

from collections.abc import Sequence

from coloraide import Color

#: Normal vision and the three dichromacies the companion's colours are checked under.
VISIONS = ("normal", "protan", "deutan", "tritan")
#: The smallest CIEDE2000 difference between two colours players must tell apart.
APART = 12.0


def seen(colour: Sequence[float], vision: str) -> Color:
    """``colour`` (sRGB, 0..1) as ``vision`` sees it, clipped to what a screen can show."""
    plain = Color("srgb", list(colour[:3]))
    if vision == "normal":
        return plain
    return plain.filter(vision, 1.0, method="machado", space="srgb-linear", out_space="srgb").clip()


def difference(first: Sequence[float], second: Sequence[float], vision: str = "normal") -> float:
    """The CIEDE2000 difference of two sRGB colours as ``vision`` sees them."""
    return seen(first, vision).delta_e(seen(second, vision), method="2000", space="lab-d65")


def too_close(palette: dict[str, Sequence[float]]) -> list[str]:
    """Every pair of ``palette`` closer than :data:`APART` for some vision, in words."""
    names = list(palette)
    close = []
    for index, first in enumerate(names):
        for second in names[index + 1:]:
            for vision in VISIONS:
                apart = difference(palette[first], palette[second], vision)
                if apart < APART:
                    close.append(f"{first}/{second} {vision} {apart:.1f}")
    return close


def hue(colour: Sequence[float]) -> float:
    """The CIE LCh hue angle of an sRGB colour, in degrees."""
    return float(Color("srgb", list(colour[:3])).convert("lch-d65")["hue"])
