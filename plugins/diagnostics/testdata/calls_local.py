from typing import Optional, Union, List


def add(x: int, y: int = 0) -> int:
    return x + y


def greet(name: str, *, loud: bool = False, times: Optional[int] = None) -> str:
    return name


def anything(a, b):
    return a


def varargs(first, *rest, **kw):
    return first


def numbers(f: float, c: complex, u: Union[int, str], l: List[int], o: object) -> None:
    pass


def posonly(a: str, /, b: str) -> None:
    pass


add()  # want "missing-argument:missing argument 'x' in call to 'add'"
add(1)
add(1, 2)
add(x=1)
add("1")  # want "type-mismatch:argument of type 'str' is not assignable to parameter 'x' of type 'int'"
add(True)
add(1.5)  # want "type-mismatch"
add(None)  # want "type-mismatch"
add(1, 2, 3)  # too many: a different error, not reported
add(z=1)  # unknown keyword: not checked
greet()  # want "missing-argument"
greet("a", loud=1)  # want "type-mismatch:'loud'"
greet("a", times=None)
greet(b"a")  # want "type-mismatch:'bytes'"
greet(f"{1}")
anything(1)  # want "missing-argument:'b'"
anything(*[1, 2])
varargs()  # want "missing-argument"
varargs(1, 2, 3, x=4)
numbers(1, 1.0, "s", [1], None)
numbers("x", 1, 1.5, (1,), 1)  # want "type-mismatch:'f'" "type-mismatch:'u'" "type-mismatch:'l'"
posonly("a", b="b")
posonly(a="a", b="b")  # keyword for a positional-only parameter: not checked


def caller(n: int, s: str, maybe: Optional[str]):
    add(n)
    add(s)  # want "type-mismatch"
    add(maybe)  # unions are not judged (narrowing)
    count = 3
    greet(count)  # want "type-mismatch"


class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x = x


class Point3(Point):
    pass


class WithNew:
    def __new__(cls, *args):
        return super().__new__(cls)

    def __init__(self, a):
        pass


Point(1)  # want "missing-argument:'y' in call to 'Point'"
Point("a", 2)  # want "type-mismatch"
Point3(1)  # want "missing-argument"
WithNew()


def decorated_is_skipped(func):
    return func


@decorated_is_skipped
def wrapped(a, b):
    pass


wrapped()


def redefined(a):
    pass


def redefined(a, b):  # two definitions: not checked
    pass


redefined(1)
