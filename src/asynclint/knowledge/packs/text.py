"""Text analysis libraries run inline: language detection, HTML parsing, nltk's tokenizers and
tagger.

``langdetect.detect`` builds a detector per call, loads its language profiles from disk on first
use and runs a randomized pure-Python n-gram model (set ``DetectorFactory.seed`` for repeatable
results, which a worker process would not share: no automatic recipe). ``BeautifulSoup(html)``
parses the whole document in Python: tens of milliseconds for a real page, microseconds for a
short reply, so it is graded by what it is given.

nltk's ``word_tokenize``, ``sent_tokenize`` and ``pos_tag`` load their model once per process
(``_get_punkt_tokenizer`` and ``_get_tagger`` are wrapped in ``functools.lru_cache``; 3.8.1
built a new ``PerceptronTagger`` per call, whose weights ``nltk.data.load`` served from its
cache after the first) and then run pure-Python regexes, Punkt's per-token passes and the
averaged perceptron over the text: CPU that grows with the text and costs more per byte than a
parser, far above a thread hop even for one reply (Punkt plus the Treebank tokenizer on a
480-word reply: ~10 ms for the sentences, ~48 ms for the words on a loaded 2-core machine), so
they are graded as CPU, not by their argument. ``nltk.data.load`` caches what it loads
(``cache=True``), so only its first call per resource reads the disk: left out, as a one-time
load. ``nltk.download`` is in the downloads pack (``hub``).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_NLTK = ("source: pkg nltk 3.10.4, 3.9.1 and 3.8.1 nltk/tokenize/__init__.py (_get_punkt_tokenizer: lru_cache), "
         "nltk/tag/__init__.py (_get_tagger: lru_cache; pos_tag -> _pos_tag -> PerceptronTagger.tag)")
_LANGDETECT = "source: pkg langdetect 1.0.9 langdetect/detector_factory.py (detect, detect_langs)"

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "cpu-heavy", None, "detect detect_langs", "langdetect.", source=_LANGDETECT),
    *many("cpu", "cpu-heavy", None, "detect detect_langs", "langdetect.detector_factory.", source=_LANGDETECT),
    # Parsing costs what the document weighs: graded by the argument, like serialization (a
    # judge's short reply is cheaper inline than a thread hop; a fetched page is not).
    *many("cpu", "cpu-heavy", "pure-process-pool", "word_tokenize sent_tokenize pos_tag pos_tag_sents", "nltk.",
          source=_NLTK),
    *many("cpu", "cpu-heavy", "pure-process-pool", "word_tokenize sent_tokenize", "nltk.tokenize.", source=_NLTK),
    *many("cpu", "cpu-heavy", "pure-process-pool", "pos_tag pos_tag_sents", "nltk.tag.", source=_NLTK),
    entry("bs4.BeautifulSoup", "cpu", "payload", None, frozenset(),
                "https://www.crummy.com/software/BeautifulSoup/bs4/doc/#making-the-soup (parses the whole document)"),
)
