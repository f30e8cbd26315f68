def one():  #@hover (function) def one() -> Literal[1]
    return 1
def maybe(a):  #@hover (function) def maybe(a: Unknown) -> (Literal[1] | None)
    if a:
        return 1
def nothing(a: int, b=0, c=None):  #@hover (function) def nothing(a: int, b: int = 0, c: Unknown | None = None) -> None
    pass
def fails():  #@hover (function) def fails() -> NoReturn
    raise ValueError()
r = one()  #@hover (variable) r: Literal[1]
def yields_names():  #@hover (function) def yields_names() -> Generator[str, Any, None]
    yield str(1)
    yield "a" + str(2)
def yields_bare():  #@hover (function) def yields_bare() -> Generator[None, Any, None]
    yield


def check_field(model, name):  #@hover (function) def check_field(model: Unknown, name: Unknown) -> (list[Unknown] | list[ValueError])
    # pyright's binder visits a try's else clause before its handlers,
    # so `return []` there comes first in the inferred union.
    try:
        model.get_field(name)
    except LookupError:
        return [ValueError(name)]
    else:
        return []
class Unfinished:
    def error(self, msg):  #@hover (method) def error(self: Self@Unfinished, msg: Unknown) -> NoReturn
        raise ValueError(msg)
    def todo(self):  #@hover (method) def todo(self: Self@Unfinished) -> Unknown
        raise NotImplementedError
    def todo_checked(self, a):  #@hover (method) def todo_checked(self: Self@Unfinished, a: Unknown) -> NoReturn
        if a:
            raise NotImplementedError("a")
        raise NotImplementedError
    def todo_from(self):  #@hover (method) def todo_from(self: Self@Unfinished) -> NoReturn
        raise NotImplementedError from None
import os
import sys
def std_call(func):  #@hover (function) def std_call(func: Unknown) -> Literal['a']
    if os.name == 'nt':
        return func
    else:
        return "a"
def versioned():  #@hover (function) def versioned() -> Literal[1]
    if sys.version_info >= (3, 0):
        return 1
def windows_only():  #@hover (function) def windows_only() -> NoReturn
    if sys.platform == "win32":
        return 1
    raise OSError


# A def returning a nested def that calls it back prints the recursion as
# `...` where a function or return meets itself (pyright 1.1.414).
def recurse(n):  #@hover (function) def recurse(n: Unknown) -> (((x: Unknown) -> (... | Literal[1])) | Literal[1])
    def again(x):  #@hover (function) def again(x: Unknown) -> (((x: Unknown) -> ...) | Literal[1])
        return recurse(x)
    if n:
        return again
    return 1


def register(name=None):  #@hover (function) def register(name: Unknown | None = None) -> (((func: Unknown) -> (... | Literal[1, 's'])) | Literal[1, 's'])
    if name is None:
        def dec(func):  #@hover (function) def dec(func: Unknown) -> (((func: Unknown) -> ...) | Literal[1, 's'])
            return register(name)
        return dec
    if name == 1:
        return 1
    return "s"


# A binding under a condition false for the target is on a path that never
# runs (requests' utils.py redefines proxy_bypass for win32 only).
from urllib.request import proxy_bypass  #@hover (function) def proxy_bypass(host: str, proxies: Mapping[str, str] | None = None) -> Any
if sys.platform == "win32":
    def proxy_bypass(host):
        return 1
bypassed = proxy_bypass("a")  #@hover (variable) bypassed: Any


# A generator's send type is Unknown once a yield's result may be used
# (a `yield from`, or a yield inside an expression), else Any (pyright's
# isYieldResultUsed).
def yields_from(it):  #@hover (function) def yields_from(it: Unknown) -> Generator[Unknown, Unknown, None]
    yield from it
def yield_assigned(n):  #@hover (function) def yield_assigned(n: Unknown) -> Generator[Unknown, Unknown, Unknown]
    x = yield n
    return x
def yield_statement(n):  #@hover (function) def yield_statement(n: Unknown) -> Generator[Unknown, Any, None]
    yield n


# A union subscripted member by member in its order, None left out.
def union_slice(x: bool | bytes | None):  #@hover (function) def union_slice(x: bool | bytes | None) -> (Unknown | bytes)
    return x[0:1]


import contextlib


# A call to a function that never returns ends the path (pyright's call
# nodes): declared NoReturn (sys.exit) or raising on every path; a def
# that never returns only through such a call does not end its caller's.
def exits(msg):  #@hover (function) def exits(msg: Unknown) -> NoReturn
    print(msg)
    sys.exit(1)
def after_exit(a):  #@hover (function) def after_exit(a: Unknown) -> Literal[1]
    if a:
        return 1
    sys.exit(1)
    return 2
def through_exits(msg):  #@hover (function) def through_exits(msg: Unknown) -> None
    exits(msg)
def exit_in_handler(x):  #@hover (function) def exit_in_handler(x: Unknown) -> int
    try:
        return int(x)
    except ValueError:
        sys.exit(2)
class Checks:
    def fail(self, msg):  #@hover (method) def fail(self: Self@Checks, msg: Unknown) -> NoReturn
        raise AssertionError(msg)
    def check(self, x):  #@hover (method) def check(self: Self@Checks, x: Unknown) -> Literal[1]
        if x:
            return 1
        self.fail("no")
    # Inside a with block the call ends nothing here: a context manager
    # may swallow the exception (pyright asks its __exit__; pyws does
    # not, so `with open(x): self.fail()` differs).
    def suppressed(self, x):  #@hover (method) def suppressed(self: Self@Checks, x: Unknown) -> (Literal[1] | None)
        if x:
            return 1
        with contextlib.suppress(ValueError):
            self.fail("no")
