import os
from typing import Final, ClassVar, TypeAlias, Optional, Literal, Callable

n = 10
h = 0x10
u = 1_000
neg = -1
f = 1.5
c = 2j
s = "a'b"
s2 = 'it\'s "q"'
s3 = "tab\there\n"
b = b'\x00ab'
cat = "a" "b"
fs = f"x{n}"
t = True
no = None
e = ...
a = b2 = len("x")
x, (y, *z) = f(1)
first, *rest = [1, 2, 3]
tup = (1, "a", *rest)
lst = [n, *rest]
st = {1, 2}
dct = {"k": 1, **os.environ}
empty = ()
sub = lst[0]
sl = lst[1:2]
tsub = dct["k", 1]
add = n + 1
un = not t
bo = n and s
cmp = 1 < n <= 3
isn = n is not None
nin = n not in lst
inv = ~n
cond = n if t else s
lam = lambda v: v * 2
gen = (i for i in lst if i)
lc = [i * 2 for i in lst]
dc = {k: v for k, v in dct.items()}
call = os.path.join("a", *lst, sep="/", **dct)
walrus = (w := len(lst))
chained = lst.copy().pop()
noargs = dict()
noargs2 = dict()
args1 = dict(a=1)
args2 = dict(a=1)
final: Final = 3
final2: Final[int] = 3
alias: TypeAlias = "list[Foo] | None"
type Pair = tuple[int, int]
annotated: Optional["Foo"] = None
lit: Literal["a", 1, -2, True, None] = "a"
cb: Callable[[int, str], bool]
sref: "os.PathLike[str]"
bad: "what is this"
union: int | "Foo" | None = None

for i in lst:
    pass
for k, v in dct.items():
    pass
with open("f") as fh, open("g") as (g1, g2):
    pass
try:
    pass
except ValueError as err:
    pass
except (KeyError, IndexError, OSError) as err2:
    pass


async def co():
    async for ai in aiter_():
        pass
    async with ctx() as ac:
        pass
    aw = await co()


class Foo:
    counter = 0
    label: str = "x"
    decl: int
    shared: ClassVar[int] = 1
    kfinal: Final = 1

    def __init__(self, v: int) -> None:
        self.v = v
        self.w: list[int] = []
        self.p, self.q = v, v
        self.r = self.s = "r"
ws = " \t\n\r\v\f"
