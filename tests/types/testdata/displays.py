a = [1, 2]  #@hover (variable) a: list[int]
d = {"a": 1}  #@hover (variable) d: dict[str, int]
t = (1, "a")  #@hover (variable) t: tuple[Literal[1], Literal['a']]
m = [1, "a"]  #@hover (variable) m: list[Unknown]
e = []  #@hover (variable) e: list[Unknown]
c = [str(i) for i in a]  #@hover (variable) c: list[str]
xs = [1]
s = {"a", *xs}  #@hover (variable) s: set[Unknown]
l = [*xs, "a"]  #@hover (variable) l: list[Unknown]
h = {"a": 1, "b": None}  #@hover (variable) h: dict[str, Unknown]
k = {**d, "b": 2}  #@hover (variable) k: dict[str, int]
names: list[str] = []
for each in (None, *names):
    print(each)  #@read each (variable) each: str | None
