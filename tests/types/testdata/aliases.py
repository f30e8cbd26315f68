from typing import TypeAlias, Optional
Number: TypeAlias = int | float  #@hover (type) Number = int | float
MaybeStr = Optional[str]
n: Number = 1  #@hover (variable) n: Literal[1]
m: MaybeStr = None  #@hover (variable) m: None
from typing import Callable, Any
Handler = Callable[..., Any]  #@hover (type) Handler = (...) -> Any
def register(f: Handler) -> None:  #@hover (function) def register(f: Handler) -> None
    pass
