"""Tests for src/utils.py: tokenizing, pluralizing and reading files."""
from utils import plural, read_text, tokenize


def test_tokenize_lowercases_and_drops_punctuation():
    assert tokenize("Hello, World! Hello.") == ["hello", "world", "hello"]


def test_tokenize_keeps_apostrophes_inside_words():
    assert tokenize("Don't stop 'til 2am") == ["don't", "stop", "til", "2am"]


def test_tokenize_empty_text():
    assert tokenize("  \n\t ") == []


def test_plural():
    assert plural(1, "word") == "1 word"
    assert plural(0, "word") == "0 words"
    assert plural(3, "line") == "3 lines"


def test_read_text(sample_file, sample_text):
    assert read_text(sample_file) == sample_text
