import unittest
from typing import TypeVar

T = TypeVar("T")
MAX_SIZE = 10
mixedName = 1  # want "convention-violation:mixedCase"
exportedName = 2
__all__ = ["exportedName", "MAX_SIZE", "T", "good_class", "BadFunction", "Fine"]


class good_class:  # want "convention-violation:CapWords"
    pass


class Bad_Class:  # want "convention-violation"
    pass


class HTTPServer2:
    pass


def BadFunction(BadArg, good_arg):  # want "convention-violation:function name" "convention-violation:argument name 'BadArg'"
    localVar = 1  # want "convention-violation:variable 'localVar'"
    LOCAL_CONST = 2
    Alias = good_class
    return localVar + LOCAL_CONST, Alias


def setUpModule():
    pass


class Fine(unittest.TestCase):
    def setUp(self):
        pass

    def assertSomethingCustom(self, Value):  # may override a base method: not reported
        pass


class Local:
    def camelMethod(self):  # want "convention-violation"
        pass

    def visit_FunctionDef(self, node):
        pass


def __getattr__(name):
    return name
