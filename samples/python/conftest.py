"""Shared pytest set-up: makes the modules in src/ importable and provides sample texts."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "src"))


@pytest.fixture
def sample_text():
    """A short text with repeated words, punctuation and a blank line."""
    return "The cat sat.\nThe cat ran!\n\nA dog sat, too.\n"


@pytest.fixture
def sample_file(tmp_path, sample_text):
    """The sample text written to a temporary file; returns its path."""
    path = tmp_path / "sample.txt"
    path.write_text(sample_text, encoding="utf-8")
    return path
