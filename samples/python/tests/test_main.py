"""Tests for src/main.py: the command-line interface end to end."""
import io

from main import main


def test_prints_counts(sample_file, capsys):
    assert main([str(sample_file)]) == 0
    assert capsys.readouterr().out == "4 lines, 10 words, 43 characters\n"


def test_top_lists_most_common_words(sample_file, capsys):
    assert main([str(sample_file), "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == ["    2  cat", "    2  sat"]


def test_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("one line\n"))
    assert main(["-"]) == 0
    assert capsys.readouterr().out == "1 line, 2 words, 9 characters\n"


def test_missing_file_fails(tmp_path, capsys):
    assert main([str(tmp_path / "nope.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err
