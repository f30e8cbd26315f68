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
