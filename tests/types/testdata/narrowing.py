# Narrowing: each read marker names a name and the hover of its first
# read on the line (its type where it is read), as pyright prints it.
from typing import Any, Callable, Literal, Optional


class Node:
    def __init__(self, size: int | None) -> None:
        self.size = size


def reassigned():
    value = 1
    print(value)  #@read value (variable) value: Literal[1]
    value = "one"
    return value  #@read value (variable) value: Literal['one']


def branches(flag: bool):
    if flag:
        result = 1
    else:
        result = "a"
    return result  #@read result (variable) result: Literal[1, 'a']


def is_none(name: Optional[str]) -> str:
    if name is None:
        return "anonymous"
    return name  #@read name (parameter) name: str


def is_not_none(node: Node | None) -> None:
    if node is not None:
        print(node)  #@read node (parameter) node: Node
    print(node)  #@read node (parameter) node: Node | None


def equals_none(path: str | None) -> str:
    if path == None:
        path = "."
    return path  #@read path (parameter) path: str


def by_isinstance(value: int | str | bytes) -> None:
    if isinstance(value, str):
        print(value)  #@read value (parameter) value: str
    elif isinstance(value, (bytes, bytearray)):
        print(value)  #@read value (parameter) value: bytes
    else:
        print(value)  #@read value (parameter) value: int


def unknown_isinstance(value):
    if isinstance(value, str):
        print(value)  #@read value (parameter) value: str


def truthiness(items: list[str] | None) -> int:
    if not items:
        return 0
    return len(items)  #@read items (parameter) items: list[str]


def guard(limit: int | None) -> int:
    if limit is None:
        raise ValueError("no limit")
    return limit  #@read limit (parameter) limit: int


def chains(a: str | None, b: int | None) -> None:
    if a is not None and b is not None:
        print(a, b)  #@read b (parameter) b: int
    if a is None or b is None:
        return
    print(a)  #@read a (parameter) a: str


def asserted(value: object) -> None:
    assert isinstance(value, int)
    print(value)  #@read value (parameter) value: int


def declared() -> None:
    count: int | None = 3
    print(count)  #@read count (variable) count: Literal[3]


def loop(items: list[str]) -> None:
    step = 0
    while step < 10:
        step = step + 1
    print(step)  #@read step (variable) step: int


def augmented(items: list[str]) -> None:
    total = 0
    for _ in items:
        total += 1
    print(total)  #@read total (variable) total: int


def conditional(text: str | None) -> str:
    return text if text is not None else ""  #@read text (parameter) text: str


def walrus(data: dict[str, int]) -> None:
    if (found := data.get("a")) is not None:
        print(found)  #@read found (variable) found: int


def handler() -> None:
    try:
        value = int("1")
    except ValueError:
        value = None
    print(value)  #@read value (variable) value: int | None


LEVEL = None if __name__ else "x"
if LEVEL is None:
    LEVEL = "info"
print(LEVEL)  #@read LEVEL (constant) LEVEL: Literal['info', 'x']


def nested(value, sep):
    if isinstance(value, str):
        if sep in value:
            value, rest = value.split(sep, 1)
        print(value)  #@read value (parameter) value: str


def counted(items: list[str]) -> None:
    found = 0
    for item in items:
        if item:
            found += 1  #@read found (variable) found: int
    if found:
        print(found)  #@read found (variable) found: int


class Tree:
    def __init__(self, parent: "Tree | None", size: int | None) -> None:
        self.parent = parent
        self.size = size

    def depth(self) -> int:
        if self.parent is not None:
            return self.parent.depth() + 1  #@read parent (variable) parent: Tree
        return 0

    def label(self) -> str:
        if self.size is None:
            self.size = 0
        return str(self.size)  #@read size (variable) size: int


def member(tree: Tree) -> int:
    if tree.size:
        return tree.size  #@read size (variable) size: int
    return 0


text_types = (str, bytes)


def tuple_filter(cert) -> None:
    if not isinstance(cert, text_types):
        return
    print(cert)  #@read cert (parameter) cert: str | bytes


def comprehension(items: list[str | None]) -> list[str]:
    return [item for item in items if item is not None]  #@read item (variable) item: str


def comprehension_source(items: list[str] | None) -> list[str]:
    if items is None:
        return []
    return [item for item in items]  #@read items (parameter) items: list[str]


def defaulted(proxies: dict[str, str] | None, name: str | None) -> None:
    proxies = proxies or {}
    print(proxies)  #@read proxies (parameter) proxies: dict[str, str]
    label = name and name.upper()
    print(label)  #@read label (variable) label: str | None


def empty_display() -> None:
    args: dict[str, int] = {}
    print(args)  #@read args (variable) args: dict[str, int]


class Request:
    def __init__(self) -> None:
        self.headers: dict[str, str] | None = None

    def prepare(self) -> None:
        self.headers = {}
        self.headers["a"] = "b"  #@read headers (variable) headers: dict[str, str]


class Base:
    pass


class Derived(Base):
    pass


def type_is(value: int | str | None) -> None:
    if type(value) is int:
        print(value)  #@read value (parameter) value: int
    else:
        print(value)  #@read value (parameter) value: int | str | None
    if type(value) == str:
        print(value)  #@read value (parameter) value: str


def type_is_base(obj: Base) -> None:
    if type(obj) is Derived:
        print(obj)  #@read obj (parameter) obj: Derived


def literal_equals(mode: Literal["r", "w", "a"]) -> None:
    if mode == "r":
        print(mode)  #@read mode (parameter) mode: Literal['r']
    else:
        print(mode)  #@read mode (parameter) mode: Literal['w', 'a']


def literal_of_str(name: str | None) -> None:
    if name == "x":
        print(name)  #@read name (parameter) name: Literal['x']


def literal_in(mode: Literal["r", "w", "a"], name: str | None) -> None:
    if mode in ("r", "w"):
        print(mode)  #@read mode (parameter) mode: Literal['r', 'w']
    if mode not in ("r", "w"):
        print(mode)  #@read mode (parameter) mode: Literal['a']
    if name in ("x", "y"):
        print(name)  #@read name (parameter) name: Literal['x', 'y']


def flag_not_true(flag: bool) -> None:
    if flag != True:
        print(flag)  #@read flag (parameter) flag: Literal[False]


def by_callable(handler: Callable[[], int] | int | None) -> None:
    if callable(handler):
        print(handler)  #@read handler (parameter) handler: () -> int
    else:
        print(handler)  #@read handler (parameter) handler: int | None


def by_callable_gradual(hook: Any, target: object, using=None):
    # typeshed's callable() is TypeIs[Callable[..., object]]: Any, object
    # and an unannotated None default narrow to the gradual callable.
    if callable(hook):
        print(hook)  #@read hook (parameter) hook: (...) -> object
    else:
        print(hook)  #@read hook (parameter) hook: Any
    if callable(target):
        print(target)  #@read target (parameter) target: (...) -> object
    if callable(using):
        return using
    return None


def callable_caller():
    return by_callable_gradual(1, 2)  #@read by_callable_gradual (function) def by_callable_gradual(hook: Any, target: object, using: Unknown | None = None) -> (((...) -> object) | None)


def by_issubclass(kind: type[int] | type[str]) -> None:
    if issubclass(kind, str):
        print(kind)  #@read kind (parameter) kind: type[str]
    else:
        print(kind)  #@read kind (parameter) kind: type[int]
def credentials(url: str):
    try:
        auth = (url.upper(), url.lower())
    except (AttributeError, TypeError):
        auth = ("", "")
    return auth  #@read auth (variable) auth: tuple[str, str] | tuple[Literal[''], Literal['']]
from typing import Optional, List
def search_locations(locs: Optional[List[str]]):
    for loc in locs:  #@hover (variable) loc: str
        pass
class Command:
    def create_parser(self) -> int: ...
def load(app_name: str):
    if isinstance(app_name, Command):
        # pyright's `<subclass of str and Command>` has Command's members.
        parser = app_name.create_parser()  #@hover (variable) parser: int
class Response:
    def __init__(self):
        self.url = None
def build_response(raw: bytes):
    response = Response()
    # A value its inferred declaration (None) does not take leaves it.
    response.url = raw.decode("utf-8")
    print(response.url)  #@read url (variable) url: None
def narrowed_callable(value, other):
    current = other.attr
    if callable(value):
        return value  #@read value (parameter) value: (...) -> object
    if callable(current):
        return current  #@read current (variable) def current(...) -> object
# len(x) == n narrows a tuple of unknown length to n elements, and keeps
# a tuple of known length only when its length agrees (pyright's
# narrowTypeForTupleLength; flask's make_response(*args)).
def by_length(*args: int, pair: tuple[int, str] | tuple[int]):
    if len(args) == 1:
        print(args)  #@read args (parameter) args: tuple[int]
    if len(pair) == 2:
        print(pair)  #@read pair (parameter) pair: tuple[int, str]
    if len(pair) != 2:
        print(pair)  #@read pair (parameter) pair: tuple[int]
