class Base:
    def greet(self) -> str:  #@hover (method) def greet(self: Self@Base) -> str
        return "hi"
    @property
    def size(self) -> int:  #@hover (property) size: (self: Self@Base) -> int
        return 1
class Child(Base):
    def __init__(self):
        self.items = [1]
c = Child()
g = c.greet()  #@hover (variable) g: str
s = c.size  #@hover (variable) s: int
i = c.items  #@hover (variable) i: list[int]
for v in c.items:  #@hover (variable) v: int
    pass
with open("f") as fh:  #@hover (variable) fh: TextIOWrapper[_WrappedBuffer]
    pass
from calls import Config  #@hover (class) Config
import threading
local_state = threading.local()
chal = local_state.chal  #@hover (variable) chal: Any
nonce = local_state.chal["nonce"]  #@hover (variable) nonce: Any
class Holder:
    def __init__(self):
        self.tl = threading.local()
    def get(self):
        value = self.tl.chal["nonce"]  #@hover (variable) value: Any
        return value
class Body:
    def __init__(self):
        self.content = False
    def load(self, ok):
        if ok:
            self.content = None
        self.content = b""
        self.count = 0
        self.count += 1
        for self.cursor in [1]:
            pass
    def read(self):
        got = self.content  #@hover (variable) got: bool | bytes | None
        n = self.count  #@hover (variable) n: int
        return got
# A store to an attribute nothing declares (of threading.local, whose
# __getattribute__ gives Any; of an Unknown) holds the value stored at
# the member's name (pyright 1.1.414: requests' num_401_calls).
class Throttle:
    def __init__(self, remote):
        self._local = threading.local()
        self.remote = remote
    def reset(self, x):
        self._local.calls = 1  #@read calls (function) calls: Literal[1]
        self.remote.field.related = "+"  #@read related (function) related: Literal['+']
        x.ratio = 2.5  #@read ratio (function) ratio: float
# A function's attributes are types.FunctionType's, a bound method's
# types.MethodType's, declared by nothing pyright's hover names; type()
# of an Unknown is type[Unknown], with type's attributes; a class's
# __doc__, __module__ and __qualname__ are its body's intrinsic
# declarations, shown without a label (pyright 1.1.414).
def plain(a: int) -> str: ...
class Described:
    def m(self, x):
        return x
    def attrs(self, loader):
        print(plain.__code__)  #@read __code__ (function) __code__: CodeType
        print(plain.__defaults__)  #@read __defaults__ (function) __defaults__: tuple[Any, ...] | None
        print(self.m.__func__)  #@read __func__ (function) def __func__(...) -> Any
        print(type(loader).__name__)  #@read __name__ (variable) __name__: str
        print(type(loader).__module__)  #@read __module__ __module__: str
        print(Described.__doc__)  #@read __doc__ __doc__: str | None
# A def stored in a class variable is bound when read through an
# instance, as a method (django's `run_subsuite = _run_subsuite`).
def _run_sub(args):
    return args, 1
class Runner:
    run_sub = _run_sub
    def go(self):
        r = self.run_sub  #@hover (variable) def r() -> tuple[Unknown, Literal[1]]
        print(self.run_sub.__func__)  #@read __func__ (function) def __func__(...) -> Any
