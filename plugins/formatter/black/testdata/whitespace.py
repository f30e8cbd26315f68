x=1
y = x+2*3-4/5//6%7@m
z = -x ** 2
w = x**-y
v = a.b**c.d
u = f(x)**2
t = 5 ** f(x)
print(* args, ** kwargs)
print(a , b , c)
def f(a , b = 1 , * args , c : int=2 , d: str = "x", ** kw) -> int : pass
lambda x , y = 1 : x+y
lambda *args, **kw: (args, kw)
lambda: 0
d = { 'a' : 1 , ** other }
s = x[1:2] , x[a+1 :] , x[:-1] , x[::2] , x[fn(a):fn(b)] , x[a.b : c]
s2 = x[lower+offset : upper+offset], ham[x+1 :], ham[1:9], ham[lower : : upper]
s3 = x[a, b:c, ::d]
if x not in y and a is not b or not c: pass
@ decorator
def g(): return (yield)
k = f(a)(b)[c]
k2 = f(a = 1, b = -1, *c, **d)
n = (x:=1)
print((yield))
i = i + 1 if i>0 else ~ i
from . import (a , b)
from .. import c
from ...pkg import d
import os.path as osp
global q , r
assert x , "message"
del a , b
raise ValueError("x") from e
async def h():
    await   x
    async for a in b: pass
    async with c as d: pass
x = a if b else c
print(not x)
y = [i for i in range(10) if i%2]
z = {k:v for k,v in items}
m = x@y
e = ...
t = Tuple[int, ...]
class A(B, metaclass = M): pass
print(f"{x!r:>10}", rb'raw', U'u')
