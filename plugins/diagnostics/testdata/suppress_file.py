# pyws: ignore-file[unused-import]
import os
import sys


def f(x: int) -> None:
    y = 1  # want "unused-variable"
