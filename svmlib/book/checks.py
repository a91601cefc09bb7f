# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Reporting numerical checks machine-independently (chapter "Margins")."""


def bounded(value, limit):
    """``"< limit"`` when ``|value| < limit``, else the value itself and the
    limit it exceeds."""
    value = float(value)
    if abs(value) < limit:
        return f"< {limit:.0e}"
    return f"{value:.2e} (exceeds {limit:.0e})"
