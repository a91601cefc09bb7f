# Generated from chapters/full_smo.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The LIBSVM format and heart_scale (from the chapter "The full SMO")."""

from importlib import resources
from pathlib import Path

import numpy as np


def parse_libsvm_line(line, line_number):
    """The label and the ``{index: value}`` pairs of one line ``label
    index:value ...`` of LIBSVM's format (indices from 1, strictly
    increasing); a ValueError names the line and the problem."""
    fields = line.split()
    try:
        label = float(fields[0])
    except ValueError:
        raise ValueError(
            f"line {line_number}: the label {fields[0]!r} is not a number"
        ) from None
    features, previous = {}, 0
    for field in fields[1:]:
        index, colon, value = field.partition(":")
        if not colon or not index.isdigit():
            raise ValueError(
                f"line {line_number}: expected index:value, got {field!r}"
            )
        if int(index) <= previous:
            raise ValueError(
                f"line {line_number}: feature indices must start at 1 "
                "and increase; "
                f"{index} follows {previous}"
            )
        try:
            features[int(index)] = float(value)
        except ValueError:
            raise ValueError(
                f"line {line_number}: the value in {field!r} "
                "is not a number"
            ) from None
        previous = int(index)
    return label, features


def read_libsvm(path, n_features=None):
    """Read a data file in LIBSVM's format into a dense ``(X, y)``; absent
    features are 0.

    ``n_features`` defaults to the largest index in the file; give it to
    read a test file with the training file's width.  Blank lines are
    skipped.
    """
    labels, rows = [], []
    with open(path, encoding="ascii") as file:
        for line_number, line in enumerate(file, start=1):
            if line.strip():
                label, features = parse_libsvm_line(line, line_number)
                labels.append(label)
                rows.append(features)
    if not rows:
        raise ValueError(f"{path} contains no data")
    width = max((max(features, default=0) for features in rows), default=0)
    if n_features is None:
        n_features = width
    elif width > n_features:
        raise ValueError(
            f"{path} has feature index {width}, "
            f"more than n_features={n_features}"
        )
    X = np.zeros((len(rows), n_features))
    for row, features in enumerate(rows):
        X[row, [index - 1 for index in features]] = list(features.values())
    return X, np.array(labels)


def heart_scale_path():
    """Where svmlib keeps its copy of heart_scale (origin and licence in
    svmlib/data/README.md)."""
    return Path(str(resources.files("svmlib") / "data" / "heart_scale"))


def load_heart_scale():
    """LIBSVM's sample data heart_scale: 270 patients, 13 features scaled to
    [-1, 1], labels +1 (120) and -1 (150)."""
    return read_libsvm(heart_scale_path())
