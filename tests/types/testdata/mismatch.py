# type-mismatch markers: a line's marker (#@mismatch, then the message)
# is the finding Check must report there; a line without one must have
# none. Every marker is an error pyright 1.1.414 reports with the same
# message; "pyright reports" notes the errors pyws leaves unjudged.
from typing import Any, Iterator, Optional, Protocol, Sequence, TypeVar

from mismatch_models import Animal, Base, Car, Dog, Version, feed, greet
from mismatch_other import Car as OtherCar

count: int = "not an int"  #@mismatch Type "Literal['not an int']" is not assignable to declared type "int"
ratio: float = 1
z: complex = 1.5
flag: int = True
pet: Animal = Dog("rex")
car: Animal = Car()  #@mismatch Type "Car" is not assignable to declared type "Animal"
maybe: Optional[Animal] = None
nothing: Animal = None  #@mismatch Type "None" is not assignable to declared type "Animal"
items: list[int] = []
floats: list[float] = [1, 2]
ints = [1, 2]
wrong: list[float] = ints  #@mismatch Type "list[int]" is not assignable to declared type "list[float]"
names: list[str] = [1]  #@mismatch Type "list[int]" is not assignable to declared type "list[str]"
pair: tuple[int, str] = (1, "a")
triple: tuple[int, str] = (1, "a", 2)  #@mismatch Type "tuple[Literal[1], Literal['a'], Literal[2]]" is not assignable to declared type "tuple[int, str]"
anything: Any = Car()
obj: object = Car()
other: Car = OtherCar()  # pyright reports; a class of the same name may be the same one reached twice
union: int | str = 3.5  #@mismatch Type "float" is not assignable to declared type "int | str"
mixed: int = 1 if pet else "a"  # pyright reports; a union with a member that fits is not judged
cls: type[Animal] = False  #@mismatch Type "Literal[False]" is not assignable to declared type "type[Animal]"
count = "again"  #@mismatch Type "Literal['again']" is not assignable to declared type "int"

feed(Dog("a"))
feed(Car())  #@mismatch Argument of type "Car" cannot be assigned to parameter "animal" of type "Animal" in function "feed"
feed(Dog("a"), grams="x")  #@mismatch Argument of type "Literal['x']" cannot be assigned to parameter "grams" of type "int" in function "feed"
feed(Dog("a"), 1.5)  #@mismatch Argument of type "float" cannot be assigned to parameter "grams" of type "int" in function "feed"
feed(Dog("a"), True)
pets: dict[str, Animal] = {}
feed(pets.get("a"))  #@mismatch Argument of type "Animal | None" cannot be assigned to parameter "animal" of type "Animal" in function "feed"
feed(pets["a"] if pets else None)  # pyright reports; a union not from a call may have been narrowed
greet("a", times="x")  #@mismatch Argument of type "Literal['x']" cannot be assigned to parameter "times" of type "int" in function "greet"
greet(1, sep=2, extra=3)
Animal(3)  #@mismatch Argument of type "Literal[3]" cannot be assigned to parameter "name" of type "str" in function "__init__"
feed(Car(), 1, 2)  # a call error (reportCallIssue), not a type one
feed(*[Car()])  # pyright reports; unpacked arguments are not judged
feed(*[Dog("a")], grams="x")  #@mismatch Argument of type "Literal['x']" cannot be assigned to parameter "grams" of type "int" in function "feed"
"-".join([1])  # pyright reports; overloads are not judged

T = TypeVar("T")


def first(xs: Sequence[T]) -> T:
    return xs[0]


first([1])
first(3)  #@mismatch Argument of type "Literal[3]" cannot be assigned to parameter "xs" of type "Sequence[T@first]" in function "first"


class Named(Protocol):
    name: str


def show(x: Named) -> None: ...


show(Car())  # pyright reports; protocols are not judged


def takes_dog(d: Dog) -> None: ...


def narrowed(a: Animal, o: Optional[Dog]) -> None:
    if isinstance(a, Dog):
        takes_dog(a)
    if o is not None:
        takes_dog(o)


def ret() -> int:
    return "s"  #@mismatch Type "Literal['s']" is not assignable to return type "int"


def ret_ok() -> Optional[str]:
    return None


async def aret() -> int:
    return 1


def gen() -> Iterator[int]:
    yield 1


def unknown(x) -> int:
    return x


def rebound(x=False):
    x = Car()
    feed(x)  # pyright reports; a rebound unannotated parameter is not judged


class Holder:
    size: int = 0

    def __init__(self) -> None:
        self.label: str = 3  # pyright reports it as reportAttributeAccessIssue #@mismatch Type "Literal[3]" is not assignable to declared type "str"


class Small(Holder):
    size = "big"  #@mismatch Type "Literal['big']" is not assignable to declared type "int"


def deco(f):
    return f


@deco
def decorated(n: int) -> None: ...


decorated("x")  # pyright reports; decorated callees are not judged


Version("1")  #@mismatch Argument of type "Literal['1']" cannot be assigned to parameter "major" of type "int" in function "__init__"


class Sub(Base):
    kind = False  #@mismatch Type "Literal[False]" is not assignable to declared type "property"


holder = Holder()
holder.size = "x"  #@mismatch Cannot assign to attribute "size" for class "Holder": "Literal['x']" is not assignable to "int"
holder.size = True
holder.other = "x"


class Grows(Holder):
    def grow(self) -> None:
        self.size = 2.5  #@mismatch Cannot assign to attribute "size" for class "Grows*": "float" is not assignable to "int"


# A name's type where it is read: an annotated parameter nothing narrows,
# a name narrowed along its flow (not through a closure), each tuple of a
# union unpacked by position.
def takes(name: str) -> int:
    return len(name)


def optional_param(name: str | None) -> None:
    takes(name)  #@mismatch Argument of type "str | None" cannot be assigned to parameter "name" of type "str" in function "takes"


def narrowed_param(name: str | None, flag: bool) -> None:
    if flag:
        name = None
    takes(name)  #@mismatch Argument of type "str | None" cannot be assigned to parameter "name" of type "str" in function "takes"
    if name is not None:
        takes(name)


def closure(offset: int | None) -> None:
    if offset:
        def inner() -> int:
            return takes(str(offset)) + offset
        inner()


def pairs(flag: bool) -> tuple[str, bool] | tuple[int, bool]:
    return ("a", True) if flag else (1, False)


def unpacked(flag: bool) -> None:
    first, _ = pairs(flag)
    if first is not None:
        takes(first)  #@mismatch Argument of type "str | int" cannot be assigned to parameter "name" of type "str" in function "takes"


def unannotated(name=None):
    takes(name)  #@mismatch Argument of type "Unknown | None" cannot be assigned to parameter "name" of type "str" in function "takes"


def unannotated_str(name="a"):
    takes(name)
