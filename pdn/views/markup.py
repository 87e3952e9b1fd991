"""Text from a file made safe for the HTML pages (the report, the viewer, the standings).

One helper, :func:`text`, below every page that writes HTML so that they all escape alike.
Cost: O(len(text)).
"""

from __future__ import annotations

import html

from pdn.base.findings import printable


def text(value: object) -> str:
    """File text for HTML: control characters escaped (``printable``), then HTML-escaped;
    ``://`` written ``:&#47;&#47;`` so that nothing reads as a network address (a page must
    not refer to the network, even in a quoted tag value)."""
    return html.escape(printable(str(value))).replace("://", ":&#47;&#47;")
