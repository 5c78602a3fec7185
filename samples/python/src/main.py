"""Entry point of textstats, a tiny command-line tool that counts words in a text file.

Usage:
    python src/main.py FILE             prints line, word and character counts
    python src/main.py FILE --top 5     also lists the five most common words
    python src/main.py - < FILE         reads standard input
"""
import argparse
import sys

from stats import summarize, top_words
from utils import plural, read_text


def build_parser():
    """The command-line interface: a path and an optional --top N."""
    parser = argparse.ArgumentParser(prog="textstats", description=__doc__.splitlines()[0])
    parser.add_argument("path", help="the text file to read, or - for standard input")
    parser.add_argument("--top", type=int, default=0, metavar="N", help="list the N most common words")
    return parser


def main(argv=None):
    """Runs the tool; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        text = sys.stdin.read() if args.path == "-" else read_text(args.path)
    except (FileNotFoundError, IsADirectoryError):
        print(f"textstats: cannot read {args.path}", file=sys.stderr)
        return 1
    summary = summarize(text)
    print(f"{plural(summary['lines'], 'line')}, {plural(summary['words'], 'word')}, "
          f"{plural(summary['chars'], 'character')}")
    for word, count in top_words(text, args.top):
        print(f"{count:>5}  {word}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
