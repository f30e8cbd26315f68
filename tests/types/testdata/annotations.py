from typing import Optional, Union, Literal, Callable, Any
# At its binding an annotated variable holds the value assigned, narrowed
# to its declared type (pyright); reads elsewhere see the declared type.
a: list[str] | None = None  #@hover (variable) a: None
b: Optional[int] = None  #@hover (variable) b: None
c: Union[int, str] = 1  #@hover (variable) c: Literal[1]
d: Literal["r", "w"] = "r"  #@hover (variable) d: Literal['r']
e: Callable[[int], str]  #@hover (variable) def e(int) -> str
f: dict[str, Any] = {}  #@hover (variable) f: dict[str, Any]
g: "int" = 1  #@hover (variable) g: Literal[1]
from typing import TypeGuard
def is_text(x: object) -> TypeGuard[str]:  #@hover (function) def is_text(x: object) -> TypeGuard[str]
    return isinstance(x, str)
checked = is_text(1)  #@hover (variable) checked: TypeGuard[str]
is_callable = callable(1)  #@hover (variable) is_callable: TypeIs[(...) -> object]
# type[X] of an unresolved forward reference or Any stays a class object;
# typing's Type prints as written there (flask's `redirect(..., Response:
# t.Optional[t.Type["Response"]] = None)`), builtin type and a known class
# print `type[...]` (pyright 1.1.414).
import typing as t
def classes(a: t.Type["Nope"], b: t.Type[int], c: type["Nope"], d: t.Optional[t.Type["Nope"]] = None, e: t.Type[t.Any] = int):  #@hover (function) def classes(a: Type[Unknown], b: type[int], c: type[Unknown], d: Type[Unknown] | None = None, e: Type[Any] = int) -> Type[Unknown]
    return a
# A name every module binds is declared by the interpreter: its hover
# has no label and its assignments are narrowed to the declared type
# (requests' status_codes rewrites its __doc__ in a function).
print(__name__)  #@read __name__ __name__: str
def extend_doc():
    global __doc__
    __doc__ = __doc__ + "x" if __doc__ is not None else None  #@read __doc__ __doc__: str
    return __doc__  #@read __doc__ __doc__: str | None
