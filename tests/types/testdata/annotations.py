from typing import Optional, Union, Literal, Callable, Any
a: list[str] | None = None  #@hover (variable) a: list[str] | None
b: Optional[int] = None  #@hover (variable) b: int | None
c: Union[int, str] = 1  #@hover (variable) c: int | str
d: Literal["r", "w"] = "r"  #@hover (variable) d: Literal['r', 'w']
e: Callable[[int], str]  #@hover (variable) def e(int) -> str
f: dict[str, Any] = {}  #@hover (variable) f: dict[str, Any]
g: "int" = 1  #@hover (variable) g: Literal[1]
