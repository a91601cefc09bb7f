"""Sphinx extension for the book: labels in code as numbered links.

svmlib's docstrings and comments name the equations they implement by label,
as in ``eq. (eq-soft-dual)``, which reads well in ``help()`` and in the
notebook. On the page a label means nothing, so

* in the API reference each such label in a docstring becomes a numbered
  link to the equation, exactly as ``{eq}`eq-soft-dual``` does in a chapter;
* in the code cells of the chapters (highlighted code, where no role is
  parsed) each ``(eq-...)`` is replaced by the equation's number, "(3.4)",
  linked to the equation;
* the same for algorithms, theorems and the other numbered statements of
  sphinx-proof (``(alg-smo)`` becomes "Algorithm 8.1", linked).

A label that no chapter defines is reported like any broken reference.
"""

import re

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.util import logging

# Equations (math domain) and algorithms, theorems, lemmas, propositions
# and definitions (sphinx-proof's prf domain), by their label's prefix.
# A numbered statement's link reads "Algorithm 5.1", so the word naming its
# kind in front of the label ("algorithm (alg-smo)") goes with the label.
LABEL = re.compile(
    r"(?:\b(?:[Aa]lgorithm|[Tt]heorem|[Ll]emma|[Pp]roposition|[Dd]efinition"
    r"|[Cc]orollary) (?=\((?:alg|thm|lem|prop|def|cor)-))?"
    r"\(((?:eq|alg|thm|lem|prop|def|cor)-[A-Za-z0-9][A-Za-z0-9-]*)\)"
)
PROOF_PREFIXES = ("alg-", "thm-", "lem-", "prop-", "def-", "cor-")
CODE_BLOCK = re.compile(r'<div class="highlight.*?</pre>', re.S)

logger = logging.getLogger(__name__)


def role_for(label: str) -> str:
    """The reST role that refers to ``label`` in a docstring."""
    return "prf:ref" if label.startswith(PROOF_PREFIXES) else "math:numref"


def link_equation_labels(app, what, name, obj, options, lines):
    """Replace each ``(eq-...)`` or ``(alg-...)`` in a docstring by a
    reference to it."""
    for index, line in enumerate(lines):
        lines[index] = LABEL.sub(
            lambda m: f":{role_for(m.group(1))}:`{m.group(1)}`", line
        )


def equation_link(app, pagename: str, label: str) -> str | None:
    """The HTML link from page ``pagename`` to ``label``, resolved as
    ``{eq}`` ("(3.4)") or ``{prf:ref}`` ("Algorithm 5.1") would be."""
    if label.startswith(PROOF_PREFIXES):
        domain, kind = app.env.get_domain("prf"), "ref"
    else:
        domain, kind = app.env.get_domain("math"), "eq"
    reference = domain.resolve_xref(
        app.env,
        pagename,
        app.builder,
        kind,
        label,
        pending_xref(refdomain=domain.name, reftype=kind, reftarget=label),
        # the role's text when none is given: the label (sphinx-proof then
        # titles the link "Algorithm 5.1")
        nodes.inline(label, label),
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
                "label %s in a code cell is not defined",
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
