"""Sphinx extension for the book: equation labels in code as numbered links.

svmlib's docstrings and comments name the equations they implement by label,
as in ``eq. (eq-soft-dual)``, which reads well in ``help()`` and in the
notebook. On the page a label means nothing, so

* in the API reference each such label in a docstring becomes a numbered
  link to the equation, exactly as ``{eq}`eq-soft-dual``` does in a chapter;
* in the code cells of the chapters (highlighted code, where no role is
  parsed) each ``(eq-...)`` is replaced by the equation's number, "(3.4)",
  linked to the equation.

A label that no chapter defines is reported like any broken reference.
"""

import re

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.util import logging

LABEL = re.compile(r"\((eq-[A-Za-z0-9][A-Za-z0-9-]*)\)")
CODE_BLOCK = re.compile(r'<div class="highlight.*?</pre>', re.S)

logger = logging.getLogger(__name__)


def link_equation_labels(app, what, name, obj, options, lines):
    """Replace each ``(eq-...)`` in a docstring by a reference to it."""
    for index, line in enumerate(lines):
        lines[index] = LABEL.sub(r":math:numref:`\1`", line)


def equation_link(app, pagename: str, label: str) -> str | None:
    """The HTML link, "(3.4)", from page ``pagename`` to the equation
    ``label``, resolved by Sphinx's math domain as ``{eq}`` would be."""
    domain = app.env.get_domain("math")
    reference = domain.resolve_xref(
        app.env,
        pagename,
        app.builder,
        "eq",
        label,
        pending_xref(),
        nodes.inline(),
    )
    if reference is None:
        return None
    # A link within the page carries the anchor alone (refid), one to
    # another page its address (refuri).
    if "refuri" in reference:
        href = reference["refuri"]
    else:
        href = "#" + reference["refid"]
    return (
        f'<a class="reference internal" href="{href}">'
        f"{reference.astext()}</a>"
    )


def number_labels_in_code(app, pagename, templatename, context, doctree):
    """Replace equation labels inside the page's code blocks by links."""
    body = context.get("body")
    if not body or "(eq-" not in body:
        return

    def link(match):
        html = equation_link(app, pagename, match.group(1))
        if html is None:
            logger.warning(
                "equation label %s in a code cell is not defined",
                match.group(1),
                location=pagename,
            )
            return match.group(0)
        return html

    def in_block(block):
        return LABEL.sub(link, block.group(0))

    context["body"] = CODE_BLOCK.sub(in_block, body)


def setup(app):
    app.connect("autodoc-process-docstring", link_equation_labels)
    app.connect("html-page-context", number_labels_in_code)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
