"""Undefined names, unused imports and variables (pyflakes semantics)."""
import os  # want "unused-import:'os' imported but unused"
import sys
import os.path as osp  # want "unused-import:'os.path as osp'"
from collections import OrderedDict, defaultdict  # want "unused-import:'collections.defaultdict'"
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decimal import Decimal  # used only in an annotation
    from fractions import Fraction  # want "unused-import"

print(sys.argv, OrderedDict)
print(undefined_thing)  # want "undefined-variable:undefined name 'undefined_thing'"


def f(x: "Decimal") -> None:
    unused = 1  # want "unused-variable:local variable 'unused'"
    _ignored = 2
    _ = 3
    a, b = x  # unpacking a non-literal: not reported (pyflakes)
    e, f2 = x, 2  # want "unused-variable" "unused-variable"
    (c, d) = (1, 2)  # want "unused-variable" "unused-variable"
    with open("f") as fh:  # want "unused-variable"
        pass
    try:
        pass
    except ValueError as err:  # want "unused-variable:'err'"
        pass
    return len(missing)  # want "undefined-variable"


def g():
    print(counter)  # want "undefined-variable:referenced before assignment"
    counter = 1
    return counter


counter = 0


def uses_locals():
    value = 1
    return locals()


class K:
    attr = 1
    other = attr + 1  # class scope sees attr

    def m(self):
        return attr  # want "undefined-variable"


print([y for y in range(3)], y)  # want "undefined-variable"
del nothing  # want "undefined-variable"
print(__file__, __name__, __doc__)
print(ExceptionGroup)  # builtin in 3.11+, the default target is 3.12

import typing_extensions as te

NEWLINE: "te.Literal['\\n', '\\r\\n']" = "\n"
