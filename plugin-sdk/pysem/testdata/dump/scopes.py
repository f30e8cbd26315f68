"""Module doc."""
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections import OrderedDict

try:
    import json
except ImportError:
    json = None

counter = 0


class Box:
    """A box."""

    size = 1

    def __init__(self, item):
        self.item = item

    @staticmethod
    def make(n=size):
        return [Box(i) for i in range(n)]


def outer():
    global counter
    total = 0

    def inner(x):
        nonlocal total
        total += x
        return lambda y: x + y + total

    counter += 1
    return inner, undefined_name
