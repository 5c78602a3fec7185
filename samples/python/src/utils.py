"""Text helpers for textstats: reading files and splitting text into words."""
import re
from pathlib import Path

WORD = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")


def read_text(path):
    """Returns the contents of a UTF-8 text file."""
    return Path(path).read_text(encoding="utf-8")


def tokenize(text):
    """Splits text into lowercase words, dropping punctuation ("Don't!" -> ["don't"])."""
    return WORD.findall(text.lower())


def plural(count, noun):
    """Formats a count with its noun: plural(1, "word") -> "1 word", plural(2, "word") -> "2 words"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
