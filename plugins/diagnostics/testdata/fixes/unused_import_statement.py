# fix: unused-import
"""Whole statements go, with their trailing comment; a block keeps a pass."""
import os  # want "unused-import:'os' imported but unused"
import sys
from typing import List  # a comment that goes too  # want "unused-import:'typing.List'"


def load():
    import json  # want "unused-import:'json'"


def parse(text):
    try:
        import ujson as json  # want "unused-import:'ujson as json'"
    except ImportError:
        return None
    return text


print(sys.argv, load, parse)
