"""How large a figure's text is on a reader's screen (shared by the plotting tests).

A chapter's figure is a PNG saved by the notebook's inline backend: cropped to its
content (``bbox_inches="tight"``) at ``figure.dpi`` pixels per inch, shown at that size
in CSS pixels ("retina" doubles the bitmap only), and shrunk to the text column when it is
wider.  The text column of a chapter on a 390 px wide phone is 342 px (measured in the
built site with Chromium; ``tests/book/browser/test_layout.py`` checks the images there),
so a text of ``s`` points is shown at ``s * dpi / 72 * min(1, 342 / width)`` px.
"""

from __future__ import annotations

import matplotlib
import matplotlib.text

#: width (CSS px) of a chapter's text column on a 390 px wide phone
PHONE_COLUMN_PX = 342
#: the smallest text a reader should have to read, in CSS px
MIN_TEXT_PX = 9.0


def shown_width_px(fig) -> float:
    """Width in CSS px of the figure as the inline backend saves it: the tight bounding
    box plus ``savefig.pad_inches`` on either side."""
    fig.canvas.draw()
    box = fig.get_tightbbox(fig.canvas.get_renderer())  # inches
    pad = float(matplotlib.rcParams["savefig.pad_inches"])
    return float((box.width + 2 * pad) * fig.dpi)


def smallest_text_px(fig, column_px: float = PHONE_COLUMN_PX) -> tuple[float, str]:
    """The smallest visible text of ``fig`` as shown in a column ``column_px`` wide.

    Returns its size in CSS px and the text itself (empty texts and texts of hidden
    axes are skipped).
    """
    width = shown_width_px(fig)
    scale = min(1.0, column_px / width)
    sizes = []
    for t in fig.findobj(matplotlib.text.Text):
        ax = t.axes
        if not t.get_visible() or not t.get_text().strip():
            continue
        if ax is not None and not ax.get_visible():
            continue
        # tick labels hidden by shared axes stay in the artist tree but are not drawn
        if t.get_window_extent().width == 0:
            continue
        sizes.append((t.get_fontsize() * fig.dpi / 72 * scale, t.get_text()))
    return min(sizes)
