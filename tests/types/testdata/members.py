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
