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
