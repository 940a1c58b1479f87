"""How far a page is tilted: from the line baselines in Tesseract's hOCR output, or,
when Tesseract found no lines to measure, from where the page's ink lies."""

from __future__ import annotations

import math
import re

from PIL import Image, ImageOps

# hOCR writes each line's baseline as "baseline <slope> <offset>" in image coordinates.
_BASELINE = re.compile(r"baseline (-?\d+(?:\.\d+)?) -?\d+")


def skew_degrees(hocr: str) -> float:
    """The median line tilt in degrees; positive means lines fall to the right.

    Turning the image by this many degrees counter-clockwise (PIL's
    ``rotate``) levels the lines. 0.0 when the page has no lines.

    >>> round(skew_degrees('title="bbox 1 2 3 4; baseline 0.032 -30"'), 2)
    1.83
    """
    slopes = sorted(float(m.group(1)) for m in _BASELINE.finditer(hocr))
    if not slopes:
        return 0.0
    return math.degrees(math.atan(slopes[len(slopes) // 2]))


#: Degrees either way the ink search tries: Tesseract itself levels a few degrees of tilt,
#: and reads nothing of a page tilted 30 degrees (a phone photo of a page on a desk); a page
#: turned a quarter is orientation detection's case.
PROFILE_SEARCH_DEGREES = 40
#: How much the best angle's profile must beat the upright one's before it is believed:
#: a photo or a page of columns whose lines do not line up has no angle that stands out.
PROFILE_MIN_GAIN = 1.3
#: Longest side, in pixels, of the copy the search turns: enough to keep lines of body text
#: apart, small enough that the sixty turns take a fraction of one Tesseract run.
PROFILE_SIDE = 600


def ink_skew_degrees(image: Image.Image) -> float:
    """The tilt of a page's text lines from its ink, in ``skew_degrees``' convention.

    For a page tilted too far for Tesseract to find any line (at ten degrees it
    reads nothing): turned by the right angle, each line's ink falls into as few
    pixel rows as it can, which makes the sum of the squared row sums largest (a
    projection profile). Whole degrees are tried first, then tenths around the
    best. 0.0 when no angle stands out (a photo, a blank page).

    >>> page = Image.new("L", (400, 300), 255)
    >>> for top in range(40, 260, 30):
    ...     page.paste(0, (40, top, 360, top + 8))
    >>> round(ink_skew_degrees(page.rotate(-7, expand=True, fillcolor=255)), 1)
    7.0
    >>> ink_skew_degrees(Image.new("L", (400, 300), 255))
    0.0
    """
    gray = ImageOps.autocontrast(image.convert("L"))
    gray.thumbnail((PROFILE_SIDE, PROFILE_SIDE), Image.Resampling.BOX)
    ink = gray.point(lambda value: 255 if value < 128 else 0)
    upright = _profile(ink, 0.0)
    coarse = max(range(-PROFILE_SEARCH_DEGREES, PROFILE_SEARCH_DEGREES + 1),
                 key=lambda angle: _profile(ink, float(angle)))
    best = max((coarse + tenth / 10 for tenth in range(-9, 10)),
               key=lambda angle: _profile(ink, angle))
    if _profile(ink, best) < PROFILE_MIN_GAIN * upright or not upright:
        return 0.0
    return round(best, 1)


def _profile(ink: Image.Image, angle: float) -> int:
    """The sum of the squared ink of each pixel row of ``ink`` turned by ``angle``."""
    turned = ink.rotate(angle, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=0)
    rows = turned.resize((1, turned.height), Image.Resampling.BOX).tobytes()
    # each row's mean times the turned width: its ink, whatever the width the turn gave it
    return sum((value * turned.width) ** 2 for value in rows)
