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
# A workspace cached_property (Django's) is a descriptor: read through an
# instance, what its __get__ returns; this one's other path calls a
# NoReturn staticmethod, so it returns itself.
class cached_property:
    name = None
    @staticmethod
    def func(instance):
        raise TypeError("cached_property without __set_name__")
    def __init__(self, func, name=None):
        self.real_func = func
    def __set_name__(self, owner, name):
        if self.name is None:
            self.name = name
            self.func = self.real_func
    def __get__(self, instance, cls=None):  #@hover (method) def __get__(self: Self@cached_property, instance: Unknown, cls: Unknown | None = None) -> Self@cached_property
        if instance is None:
            return self
        res = instance.__dict__[self.name] = self.func(instance)
        return res
class Cached:
    @cached_property
    def size(self):
        return 1
cached_size = Cached().size  #@hover (variable) cached_size: cached_property
