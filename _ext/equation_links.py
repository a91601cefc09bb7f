"""Sphinx extension for the book: equation labels in docstrings as links.

svmlib's docstrings name the equations they implement by label, as in
``eq. (eq-soft-dual)``, which reads well in ``help()``. In the API reference
each such label is turned into a numbered link to the equation, exactly as
``{eq}`eq-soft-dual``` does in a chapter. A label that no chapter defines is
reported by Sphinx like any broken reference.
"""

import re

LABEL = re.compile(r"\((eq-[A-Za-z0-9][A-Za-z0-9-]*)\)")


def link_equation_labels(app, what, name, obj, options, lines):
    """Replace each ``(eq-...)`` in a docstring by a reference to it."""
    for index, line in enumerate(lines):
        lines[index] = LABEL.sub(r":math:numref:`\1`", line)


def setup(app):
    app.connect("autodoc-process-docstring", link_equation_labels)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
