"""Counting for textstats: lines, words, characters and the most common words."""
from collections import Counter

from utils import tokenize


def count_lines(text):
    """Number of lines; a last line without a newline still counts."""
    return len(text.splitlines())


def count_words(text):
    """Number of words as tokenize() sees them."""
    return len(tokenize(text))


def summarize(text):
    """Returns a dict with the line, word and character counts of text."""
    return {"lines": count_lines(text), "words": count_words(text), "chars": len(text)}


def top_words(text, n):
    """The n most common words as (word, count) pairs, most common first, ties alphabetical."""
    if n <= 0:
        return []
    counts = Counter(tokenize(text))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]
