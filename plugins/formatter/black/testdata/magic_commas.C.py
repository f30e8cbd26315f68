a = [1, 2,]
b = {"a": 1,}
c = (1, 2,)
d = foo(x,)
e = Tuple[int,]
f = x[1, 2,]
def g(a, b,): pass
h = [
    1, 2, 3
]
i = call(a)(b,)(c)
j = {
    'nested': [1, 2,],
    'other': {'x': (1,)},
}
for (x, y,) in z: pass
print(*args,)
class K(Base,): pass
from m import (a, b,)
from m import (c)
