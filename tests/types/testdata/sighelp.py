# Signature help labels, as pyright 1.1.414's signatureHelp prints them
# (checked with pyright-langserver); each `#@sig` is the active signature
# of the first call on its line.
class Response:
    def __init__(self, status: int = 200) -> None:
        self.status = status


Alias = Response
Alias(1)  #@sig (status: int = 200) -> Alias
Response(1)  #@sig (status: int = 200) -> Response


class App:
    response_class = Response
    annotated: type[Response] = Response

    def make(self):
        self.response_class(1)  #@sig (status: int = 200) -> response_class
        self.annotated(1)  #@sig (status: int = 200) -> Response


def local():
    Local = Response
    Local(1)  #@sig (status: int = 200) -> Response


def tuples(xs: list[str]):
    tuple(xs)  #@sig (iterable: Iterable[str] = (), /) -> tuple[str, ...]


def made(app: App):
    made = app.response_class()  #@hover (variable) made: response_class
    return [made]


import threading

stub_alias = threading.local()  #@hover (variable) stub_alias: _local


from typing import AnyStr, Iterator


def recurse(x: Iterator[AnyStr]) -> Iterator[AnyStr]:
    recurse(x)  #@sig (x: Iterator[AnyStr@recurse]) -> Iterator[AnyStr@recurse]
    return recurse(undefined_name)  #@sig (x: Iterator[Unknown]) -> Iterator[Unknown]


recurse(undefined_name)  #@sig (x: Iterator[Unknown]) -> Iterator[Unknown]


from collections import namedtuple

Point = namedtuple("Point", "x y")
Point(1, 2)  #@sig (*args: Any, **kwargs: Any) -> Point

threading.local()  #@sig () -> local


class Base:
    def as_sql(self, compiler, connection, function=None):
        return compiler


class Derived(Base):
    def as_sql(self, compiler, connection, function=None):
        return super().as_sql(compiler, connection)  #@sig (compiler: Unknown, connection: Unknown, function: Unknown | None = None) -> Unknown


class Mixin:
    def check(self):
        return 1


class MixedIn(Mixin, Base):
    def as_sql(self, compiler, connection, function=None):
        return super().as_sql(compiler, connection)  #@sig (compiler: Unknown, connection: Unknown, function: Unknown | None = None) -> Unknown


def copied(p):  #@hover (function) def copied(p: Unknown) -> (dict[Unknown, Unknown] | Unknown)
    q = p or {}
    return q.copy()


def attribute(p):  #@hover (function) def attribute(p: Unknown) -> (Unknown | (() -> dict_keys[Unknown, Unknown]))
    q = p or {}
    return q.keys


import re

headers = {"a": undefined_name}
headers.setdefault("k")  #@read setdefault (method) def setdefault(key: str, default: None = None, /) -> (Unknown | None)
re.compile("")  #@read compile (function) def compile(pattern: AnyStr@compile, flags: _FlagsType = 0) -> Pattern[AnyStr@compile]


from typing import Callable

hovered: Callable[[Callable[..., int], int | str], str]  #@hover (variable) def hovered((...) -> int, int | str) -> str
nested: list[Callable[[Callable[..., int]], str]]  #@hover (variable) nested: list[((...) -> int) -> str]


def returned() -> Callable[[Callable[..., int]], str]: ...  #@hover (function) def returned() -> ((((...) -> int)) -> str)


from operator import attrgetter


def sorts(rules, s):
    sorted(rules, key=attrgetter(s))  #@sig (iterable: Iterable[Unknown], /, *, key: None = None, reverse: bool = False) -> list[Unknown]
    sorted([1], key=attrgetter(s))  #@sig (iterable: Iterable[int], /, *, key: None = None, reverse: bool = False) -> list[int]


class Copier:
    def copy(self):
        return self


class SubCopier(Copier):
    def make(self):  #@hover (method) def make(self: Self@SubCopier) -> Self@SubCopier
        return super().copy()


# functools.partial: the parameters left, keyword-bound ones last with a
# default, printed as pyright's synthesized __call__ (every default
# "...", *args or the bare `*` as "...").
import functools
from functools import partial


def route(path, view, kwargs=None, name=None, pattern=None):
    return path


def create(name: str, narg: int, func, *, deterministic: bool = False) -> None: ...


def spread(first: int, *rest: str, flag: bool = True) -> int:
    return first


path = partial(route, pattern=1)
path("a", view=None, name="x")  #@active 0:0 1:1 2:3 #@sig (path: Unknown, view: Unknown, kwargs: Unknown | None = ..., name: Unknown | None = ..., pattern: Unknown | None = ...) -> Unknown
created = functools.partial(create, deterministic=True)
created("f", 1, None)  #@active 0:0 2:2 #@sig (name: str, narg: int, func: Unknown, ..., deterministic: bool = ...) -> None
bound = partial(route, "p")
bound(None, name="n")  #@active 0:0 1:2 #@sig (view: Unknown, kwargs: Unknown | None = ..., name: Unknown | None = ..., pattern: Unknown | None = ...) -> Unknown
spread_one = partial(spread, 1, "a")
spread_one("b", flag=False)  #@active 0:0 1:1 #@sig (..., flag: bool = ...) -> int


class Table:
    def __init__(self, table, columns):
        self.table = table

    def rename(self, old, new):
        return old


class Columns(Table):
    def __init__(self, table):
        # A bound __init__ shows the arguments' types as a constructor
        # does; called through the class, or another method, Unknown.
        super().__init__(table, [1])  #@active 1:1 #@sig (table: Unknown, columns: list[int]) -> None
        Table.__init__(self, table, [1])  #@sig (self: Table, table: Unknown, columns: Unknown) -> None
        self.rename([1], True)  #@sig (old: Unknown, new: Unknown) -> Unknown


Table([1], True)  #@sig (table: list[int], columns: bool) -> Table


# pyright sorts an empty `{}` / `[]` after the other members of a union
# (and drops it beside another instance of its class), but not among a
# def's return statements.
class DefaultedHolder:
    def __init__(self, fields=None):
        if fields is None:
            fields = {}
        self.fields = fields


def defaulted(fields=None):
    if fields is None:
        fields = {}
    return fields


def empty_or_value(c):
    if c:
        return {}
    return c


def empty_or_filled(c):
    return [] if c else [1]


def uses_defaulted(holder: DefaultedHolder):
    fields = holder.fields  #@hover (variable) fields: Unknown | dict[Unknown, Unknown]
    defaulted(fields)  #@sig (fields: Unknown | None = None) -> (Unknown | dict[Unknown, Unknown])
    empty_or_value(1)  #@sig (c: Unknown) -> (dict[Unknown, Unknown] | Unknown)
    empty_or_filled(1)  #@sig (c: Unknown) -> list[int]



# Django's mark_safe: pyright infers a call inside another call's
# inference with the outer parameters Unknown, and a def's own return
# inside a call inferring it without that call's parameter types.
def marks(x, text: str, obj: object, c: Callable[..., object]):
    from safewrap import _safety_decorator, mark_safe

    mark_safe(x)  #@sig (s: Unknown) -> (Unknown | _Wrapped[..., object, ..., Unknown | _Wrapped[..., Unknown, ..., Unknown] | Safe] | Safe)
    on_text = mark_safe(text)  #@hover (variable) on_text: str | _Wrapped[..., object, ..., Unknown | _Wrapped[..., Unknown, ..., Unknown] | Safe] | Safe
    on_object = mark_safe(obj)  #@hover (variable) on_object: object | _Wrapped[..., object, ..., Unknown | _Wrapped[..., Unknown, ..., Unknown] | Safe] | Safe
    wrapped_c = _safety_decorator(mark_safe, c)  #@hover (variable) wrapped_c: _Wrapped[..., object, ..., Unknown | _Wrapped[..., Unknown, ..., Unknown] | Safe]


def maybe_same(x):
    if x:
        return x
    return None


def passes_on(a):
    return maybe_same(a)


def passes_on_listed(a):
    return maybe_same([a])


inferred_inside = passes_on(1)  #@hover (variable) inferred_inside: Unknown | None
listed_inside = passes_on_listed(1)  #@hover (variable) listed_inside: list[Unknown] | None
