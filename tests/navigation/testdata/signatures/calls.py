# Signature help markers: `#@sig` CHAR SIG PARAM LABEL says that at
# character CHAR of the marker's line the active signature is SIG, its
# active parameter PARAM and its label LABEL (pyright 1.1.414's answers);
# `#@sig` CHAR - that there is none.
import os
from typing import Callable, overload


class C:
    """A class."""

    def __init__(self, x: int, y: str = "a") -> None:
        pass

    def m(self, a, *args, k: int = 1, **kw) -> int:
        """Method doc."""
        return 1


@overload
def ov(a: int) -> int: ...
@overload
def ov(a: str, b: int = 0) -> str: ...
def ov(a, b=0):
    return a


def f(a: int, b: str = "x", *, c=None):
    """F doc."""


f(1, c=2)  #@sig 2 0 0 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
f(1, c=2)  #@sig 5 0 3 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
f(1, c=2)  #@sig 1 -
f(1, c=2)  #@sig 9 -
C(1, )  #@sig 2 0 0 (x: int, y: str = "a") -> C
C(1, )  #@sig 5 0 1 (x: int, y: str = "a") -> C
C(1).m(1, 2, k=3)  #@sig 7 0 0 (a: Unknown, ..., k: int = 1) -> int
C(1).m(1, 2, k=3)  #@sig 10 0 1 (a: Unknown, ..., k: int = 1) -> int
C(1).m(1, 2, k=3)  #@sig 14 0 2 (a: Unknown, ..., k: int = 1) -> int
ov("s", 1)  #@sig 3 0 0 (a: int) -> int
ov("s", 1)  #@sig 7 1 1 (a: str, b: int = 0) -> str
print("a", sep="")  #@sig 6 0 0 (*values: object, sep: str | None = " ", end: str | None = "\n", file: SupportsWrite[str] | None = None, flush: Literal[False] = False) -> None
print("a", sep="")  #@sig 13 0 1 (*values: object, sep: str | None = " ", end: str | None = "\n", file: SupportsWrite[str] | None = None, flush: Literal[False] = False) -> None
os.path.join("a", "b")  #@sig 13 0 0 (a: LiteralString, /, *paths: LiteralString) -> LiteralString
os.path.join("a", "b")  #@sig 18 0 2 (a: LiteralString, /, *paths: LiteralString) -> LiteralString
len([1, 2])  #@sig 4 0 0 (obj: Sized, /) -> int
len([1, 2])  #@sig 8 0 0 (obj: Sized, /) -> int
set()  #@sig 4 0 -1 () -> set[Unknown]
list(["a"])  #@sig 5 1 0 (iterable: Iterable[str], /) -> list[str]
{"a": 1}.update(b=2)  #@sig 16 4 0 (**kwargs: int) -> None
f(*[1], **{})  #@sig 2 0 1 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
f(*[1], **{})  #@sig 8 0 4 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
f(1, "b", 3)  #@sig 10 0 4 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
def call_back(cb: Callable[[int, str], bool]) -> bool:
    return cb(1, "x")  #@sig 17 0 1 (int, str) -> bool


f(ov(1), 2)  #@sig 5 0 0 (a: int) -> int
f(ov(1), 2)  #@sig 9 0 1 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
f(  #@sig 2 0 0 (a: int, b: str = "x", *, c: Unknown | None = None) -> None
