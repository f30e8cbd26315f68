import abc
import functools
from typing import overload, final
from warnings import deprecated


def plain(a, b: int, /, c, d: str = "x", *args: int, e, f=0x10, **kw: object) -> "Foo":
    if a:
        return a
    elif b:
        return
    return (b, c)


def kwonly(*, k: int = 1, m=[1, 2,
                             3]): ...


def gen(n):
    yield n
    def inner():
        return 1
    return None


def never(x) -> int:
    raise ValueError(x)


def branches(x):
    if x:
        return 1
    else:
        raise KeyError


def loops_forever():
    while True:
        pass


def falls(x):
    if x:
        return 1


def tried(x):
    try:
        return int(x)
    except ValueError:
        return 0


def lambdas():
    f = lambda: 1
    return f


async def coro():
    return 1


class C(abc.ABC):
    @overload
    def m(self, x: int) -> int: ...
    @overload
    def m(self, x: str) -> str: ...
    def m(self, x):
        return x

    @classmethod
    def make(cls) -> "C":
        return cls()

    @staticmethod
    def util(): ...

    def __new__(cls, *a): ...

    def __init_subclass__(cls): ...

    @abc.abstractmethod
    def ab(self): ...

    @final
    def fin(self): ...

    @deprecated("use m")
    def old(self): ...

    @property
    def prop(self) -> int:
        return 1

    @prop.setter
    def prop(self, v: int) -> None: ...

    @functools.cached_property
    def cached(self) -> str:
        return ""

    @functools.lru_cache(maxsize=None)
    @staticmethod
    def lru(x): ...


@final
class D(C): ...


def gen_bare_and_from(xs):
    yield
    x = yield from xs
    lambda: (yield 1)
