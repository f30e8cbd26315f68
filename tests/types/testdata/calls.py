import copy
import os.path
class Config:
    def __init__(self, name: str) -> None:
        self.name = name
cfg = Config("a")  #@hover (variable) cfg: Config
names = ["a"]
last = names.pop()  #@hover (variable) last: str
joined = ", ".join(names)  #@hover (variable) joined: str
parts = "a b".split()  #@hover (variable) parts: list[LiteralString]
dup = copy.copy(1)  #@hover (variable) dup: int
p = os.path.join("a", "b")  #@hover (variable) p: LiteralString
size = len(names)  #@hover (variable) size: int
ints = map(int, ["1"])  #@hover (variable) ints: map[int]
import functools
@functools.lru_cache
def cached(x):
    if x:
        return None
    return "s"
cv = cached(1)  #@hover (variable) cv: str | None
def joined_list(x):  #@hover (function) def joined_list(x: Unknown) -> LiteralString
    return ", ".join(list(x))
# A decorator factory's Callable keeps the type variables its
# parameters name, solved when it decorates.
@functools.lru_cache(maxsize=None)
def split_path(name: str) -> list[str]:
    return [name]
parts_cached = split_path("a.b")  #@hover (variable) parts_cached: list[str]
# Arguments the first solution does not take widen it.
from itertools import chain
chained = chain([1], ["a"])  #@hover (variable) chained: chain[int | str]
from typing import Dict, Optional
def lookup(table: Dict[Optional[int], str], key: Optional[int]):
    found = table[key]  #@hover (variable) found: str
def handler_for(handlers: Dict[type[Exception], str], exc: type[Exception]):
    for cls in exc.__mro__:
        handler = handlers.get(cls)  #@hover (variable) handler: str | None
from typing import Any
def first_key(value: Any):
    key = next(iter(value))  #@hover (variable) key: Any
    for index, word in enumerate(value):  #@hover (variable) index: int
        print(word)  #@read word (variable) word: Any
import subprocess
# An __init__ overload's annotated self says what the call makes.
proc = subprocess.Popen(["ls"], stdout=subprocess.PIPE)  #@hover (variable) proc: Popen[bytes]
text_proc = subprocess.Popen(["ls"], text=True)  #@hover (variable) text_proc: Popen[str]


from typing import Callable


def union_callees(
    a: Callable[..., object] | Callable[..., int] | Callable[..., str],
    c: Callable[..., str] | Callable[..., int],
    d: Callable[..., object] | Any | Callable[..., str],
    e: int | Callable[..., str] | Callable[..., bytes],
):
    # A union called joins its members' results in pyright's order of
    # the members (compareTypes), not as written.
    ra, rc, rd, re = a(), c(), d(), e()
    print(ra)  #@read ra (variable) ra: int | object | str
    print(rc)  #@read rc (variable) rc: int | str
    print(rd)  #@read rd (variable) rd: object | str | Any
    print(re)  #@read re (variable) re: Unknown | bytes | str
# An overload matched through an Unknown argument is only possibly the
# one called: when the Unknown goes to parameters of different types,
# results none of which subsumes the others make the call Unknown.
import os
def gradual(x):
    fs = os.fspath(x)  #@hover (variable) fs: Unknown
    joined = os.path.join(x, "a")  #@hover (variable) joined: str
    glued = "".join(x)  #@hover (variable) glued: str
    attr = getattr(x, "a", None)  #@hover (variable) attr: Any | None
    parts = str(x).split("=", 1)  #@hover (variable) parts: list[str]
    biggest = max(x, 1)  #@hover (variable) biggest: int
# A constrained type variable (AnyStr) is solved to the constraint each
# known member of the argument fits, an Unknown member kept at the top.
import re
from urllib.parse import urlunparse
def constrained(x, y: str, z: str | bytes):
    escaped = re.escape(x or "a")  #@hover (variable) escaped: Unknown | str
    unparsed = urlunparse((x, y, "", "", "", ""))  #@hover (variable) unparsed: str
    base = os.path.basename(z)  #@hover (variable) base: str | bytes
# A lambda prints its parameters by name, as pyright prints it.
pair = lambda x, y: 1  #@hover (variable) def pair(x: Unknown, y: Unknown) -> Literal[1]
splats = lambda *a, **kw: 1  #@hover (variable) def splats(*a: Unknown, **kw: Unknown) -> Literal[1]
nothing = lambda: "a"  #@hover (variable) def nothing() -> Literal['a']
# Calling a union adds nothing for its None member (pyright's
# reportOptionalCall): requests' digest `KD = lambda s, d: hash_utf8(...)`.
def digest(x):
    return str(x)
def pick_hash(alg):
    hasher = None
    if alg == "MD5":
        hasher = digest
    kd = lambda s, d: hasher(f"{s}:{d}")  #@hover (variable) def kd(s: Unknown, d: Unknown) -> str
    hashed = hasher("a")  #@hover (variable) hashed: str
    nothing = None
    return nothing()  #@read nothing (variable) nothing: None
# The three-argument type() with an Unknown name is Any (pyright 1.1.414).
def make_class(name):  #@hover (function) def make_class(name: Unknown) -> Any
    return type(name, (object,), {})
# A keyword argument of a callee bound more than once is found at its
# call as the call reads the callee (through the flow): requests'
# SOCKSProxyManager(proxy, password=password), a class or a def.
class Socks:
    def __init__(self, url, username=None, password=None): ...
def no_socks(*args, **kwargs):
    raise ValueError("socks")
def socks_proxy(url: str, user: str):
    m = Socks
    if url:
        m = no_socks
    m(url, password=user)  #@read password (function) password: str
# A keyword argument of a union callee has no parameter declaring it:
# its type is what the member pyright checks the call against last
# gives (members sorted: classes, overloads, functions with the most
# parameters first, Any, Unknown; None left out): django's
# `obj.query.clear_ordering(clear_default=False)` of an `Unknown | Query`.
class Ordering:
    def clear(self, force=False, clear_default=True) -> None: ...
class Holder:
    def __init__(self, q=None):
        self._q = q or Ordering()
    def run(self):
        self._q.clear(force=True, clear_default=False)  #@read clear_default (function) clear_default: Any
def kw_long(a: int, b: str = "", c: int = 0): ...
def kw_short(a: int, b: bytes = b""): ...
class KwClass:
    def __init__(self, b: float = 1.0): ...
def kw_pick(x: bool):
    g = kw_long if x else kw_short
    g(1, b="s")  #@read b (function) b: bytes
    k = KwClass if x else None
    k(b=3)  #@read b (function) b: float
