import asyncio
pairs = [(1, "a")]
for num, label in pairs:  #@hover (variable) num: int
    pass
first, second = (1, "x")  #@hover (variable) first: Literal[1]
head, *rest = [1, 2, 3]  #@hover (variable) head: int
counts = {"a": 1}
for key in counts:  #@hover (variable) key: str
    pass
v = counts["a"]  #@hover (variable) v: int
got = counts.get("a")  #@hover (variable) got: int | None
t = (1, "a")
second_item = t[1]  #@hover (variable) second_item: str
async def fetch() -> int:  #@hover (function) def fetch() -> CoroutineType[Any, Any, int]
    return 1
async def main():
    value = await fetch()  #@hover (variable) value: int
    return value
for k, val in counts.items():  #@hover (variable) k: str
    pass
names = ["a"]
for idx, name in enumerate(names):  #@hover (variable) idx: int
    pass
for name2, count2 in zip(names, [1]):  #@hover (variable) name2: str
    pass
upper = [s.upper() for s in names]  #@hover (variable) upper: list[str]
from typing import cast
casted = cast(int, names)  #@hover (variable) casted: int
numbered = enumerate(names)  #@hover (variable) numbered: enumerate[str]
# A __new__ that makes another class's instance decides the call and
# __init__ is skipped: reversed(x) is Iterator[T].
backwards = reversed(names)  #@hover (variable) backwards: Iterator[str]
from typing import Callable, List, Union
Hook = Union[Callable[[int], None], Callable[[str], None]]
def run_hooks(hooks: List[Hook]):
    for hook in reversed(hooks):  #@hover (variable) hook: Hook
        pass
from collections import defaultdict
from typing import Dict, Optional
# A generic class constructed where a base class is expected takes the
# expected arguments (pyright's expected type for the constructor).
hooks_by_key: Dict[Optional[str], List[Hook]] = defaultdict(list)  #@hover (variable) hooks_by_key: defaultdict[str | None, List[Hook]]
Handler = Callable[[int], str]
def call_handlers(handlers: List[Handler]):
    for handler in handlers:  #@hover (variable) def handler(int) -> str
        pass
