from typing import Optional, Union, Literal, Callable, Any
# At its binding an annotated variable holds the value assigned, narrowed
# to its declared type (pyright); reads elsewhere see the declared type.
a: list[str] | None = None  #@hover (variable) a: None
b: Optional[int] = None  #@hover (variable) b: None
c: Union[int, str] = 1  #@hover (variable) c: Literal[1]
d: Literal["r", "w"] = "r"  #@hover (variable) d: Literal['r']
e: Callable[[int], str]  #@hover (variable) def e(int) -> str
f: dict[str, Any] = {}  #@hover (variable) f: dict[str, Any]
g: "int" = 1  #@hover (variable) g: Literal[1]
