import functools
from typing import Callable, TypeVar

T = TypeVar("T")


def nullary(f: Callable[..., T]) -> Callable[[], T]:
    return f


@nullary
def made(x) -> int:  #@hover (function) def made(x: Unknown) -> int
    return 1


@functools.lru_cache
def cached(x):  #@hover (function) def cached(x: Unknown) -> (Literal['s'] | None)
    if x:
        return None
    return "s"


made()  #@read made (function) def made() -> int
cached(1)  #@read cached (function) cached: _lru_cache_wrapper[str | None]


class cached_property:
    # A workspace descriptor as a property decorator (django's
    # cached_property): pyright reads the member through its __get__.
    def __init__(self, func):
        self.func = func

    def __get__(self, instance, cls=None):
        return self


class Factory:
    @cached_property
    def func(self) -> int:
        return 1

    def __call__(self, *args):
        return self.func(*args)


factory_func = Factory().func
class_func = Factory.func
print(factory_func)  #@read factory_func (variable) factory_func: cached_property
print(class_func)  #@read class_func (variable) class_func: cached_property
Factory()(1)  #@sig (*args: Unknown) -> Unknown
