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
