from typing import TypeAlias, Optional
Number: TypeAlias = int | float  #@hover (type) Number = int | float
MaybeStr = Optional[str]
n: Number = 1  #@hover (variable) n: Number
m: MaybeStr = None  #@hover (variable) m: MaybeStr
from typing import Callable, Any
Handler = Callable[..., Any]  #@hover (type) Handler = (...) -> Any
def register(f: Handler) -> None:  #@hover (function) def register(f: Handler) -> None
    pass
