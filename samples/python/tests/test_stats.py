"""Tests for src/stats.py: the counts and the most common words."""
from stats import count_lines, count_words, summarize, top_words


def test_count_lines_counts_a_last_line_without_newline():
    assert count_lines("a\nb") == 2
    assert count_lines("a\nb\n") == 2
    assert count_lines("") == 0


def test_count_words(sample_text):
    assert count_words(sample_text) == 10


def test_summarize(sample_text):
    assert summarize(sample_text) == {"lines": 4, "words": 10, "chars": len(sample_text)}


def test_top_words_most_common_first_ties_alphabetical(sample_text):
    assert top_words(sample_text, 3) == [("cat", 2), ("sat", 2), ("the", 2)]


def test_top_words_zero_or_negative():
    assert top_words("a a b", 0) == []
    assert top_words("a a b", -1) == []
