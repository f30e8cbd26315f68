import os  # noqa
import sys  # noqa: unused-import
import json  # noqa: F401
import re  # noqa: E501  # want "unused-import"
import ast  # pyws: ignore[unused-import]
import abc  # pyws: ignore
import csv  # pyws: ignore[unused-variable]  # want "unused-import"
import math


def f(x: int) -> None:
    pass


f("a")  # type: ignore
f("a")  # type: ignore[arg-type]
f("a")  # pyright: ignore[reportArgumentType]
f("a")  # noqa: unused-import  # want "type-mismatch"
f("a")  # want "type-mismatch"
print(undefined_name)  # type: ignore  # want "undefined-variable"
print(undefined_too)  # NOQA: F821
math.sqrt()  # noqa: missing-argument
