"""How far a page is tilted, from the line baselines in Tesseract's hOCR output."""

from __future__ import annotations

import math
import re

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
