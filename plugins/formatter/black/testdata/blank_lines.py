import os
import sys
x = 1
def f():



    pass
class A:



    x = 1
    def f(self):
        pass



    y = 2
    class Inner:
        pass
    z = 3
@decorator

def g():
    pass
# comment before def
def h():
    pass
if True:
    def i():
        pass
else:
    pass
try:
    import foo
except ImportError:
    foo = None
def j():
    # leading comment

    x = 1



    return x
class Empty:
    pass
class WithDoc:
    """Doc."""
    def m(self):
        pass
@overload
def k(): ...
@overload
def k(x): ...
def k(x=None):
    pass
x = 1



y = 2
for i in range(3):

    print(i)
while False:
    pass
else:
    pass
