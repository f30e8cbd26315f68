# type: ignore
import os  # want "unused-import"


def f(x: int) -> None:
    pass


f("a")
