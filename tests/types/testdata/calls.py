import copy
import os.path
class Config:
    def __init__(self, name: str) -> None:
        self.name = name
cfg = Config("a")  #@hover (variable) cfg: Config
names = ["a"]
last = names.pop()  #@hover-generic (variable) last: str
joined = ", ".join(names)  #@hover-generic (variable) joined: str
parts = "a b".split()  #@hover-generic (variable) parts: list[str]
dup = copy.copy(1)  #@hover (variable) dup: int
p = os.path.join("a", "b")  #@hover (variable) p: str
size = len(names)  #@hover (variable) size: int
