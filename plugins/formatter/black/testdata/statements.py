class A(): pass
class B(object): pass
if x: pass
while (x): pass
for (i) in (range(10)): pass
for (x, y) in z: pass
return (1)
print((1))
x = (1)
y = (((2)))
z = (yield)
del (a, b)
del (a), b
if (n := 1): pass
x = (n := 2)
a = 1; b = 2;
with (open(f)) as g: pass
try: pass
except (ValueError): pass
except (A, B) as e: pass
finally: pass
x = 1,
a, = b
print(* args)
async def f(): await (g())
async def g(): await (a + b)
assert (x, y)
import a, b
from a import (b)
from a import *
if x:
    pass
elif (y):
    pass
t = (1, 2)
u = ()
v = (1,)
x = 1 .real
y = 0xff .real
