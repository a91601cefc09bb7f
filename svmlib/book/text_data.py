# Generated from chapters/in_practice.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""A synthetic bag-of-words corpus for sparse input (chapter "svmlib in
practice")."""

import numpy as np


TOPICS = {
    "astronomy": "star planet orbit telescope galaxy comet moon solar "
    "gravity nebula eclipse asteroid".split(),
    "cooking": "oven flour sugar butter recipe bake dough salt pepper "
    "garlic simmer roast".split(),
}
COMMON_WORDS = (
    "the a of and to in is it that for with on as this was".split()
)
COMMON_SHARE = 0.5  # a word is topical, else common below this, else rare


def make_documents(n, n_rare=20_000, length=40, topical=0.05, seed=0):
    """n documents of ``length`` words on one of the two TOPICS: a share
    ``topical`` of the words from its topic's list, the rest common words
    and words of a long tail of ``n_rare`` rare ones (Zipf's law).  Returns
    the documents (strings) and their topics."""
    rng = np.random.default_rng(seed)
    topic = rng.integers(len(TOPICS), size=n)
    rare = np.array([f"w{k:05d}" for k in range(n_rare)])
    zipf = 1.0 / np.arange(1, n_rare + 1)
    documents = []
    for t in topic:
        draw = rng.random(length)
        words = np.where(
            draw < topical,
            rng.choice(list(TOPICS.values())[t], size=length),
            np.where(
                draw < COMMON_SHARE,
                rng.choice(COMMON_WORDS, size=length),
                rng.choice(rare, size=length, p=zipf / zipf.sum()),
            ),
        )
        documents.append(" ".join(words))
    return documents, np.array(list(TOPICS))[topic]
