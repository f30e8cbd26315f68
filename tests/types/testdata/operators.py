a = 1 + 2  #@hover (variable) a: Literal[3]
b = "x" + "y"  #@hover (variable) b: Literal['xy']
c = 1 + 1.5  #@hover (variable) c: float
d = 1 < 2  #@hover (variable) d: bool
e = not a  #@hover (variable) e: bool
f = a and "x"  #@hover (variable) f: Literal['x']
g = [1] + [2]  #@hover (variable) g: list[int]
h = "a" in "abc"  #@hover (variable) h: bool
def double(n):  #@hover (function) def double(n: Unknown) -> Unknown
    return n * 2
def percent(s: str):  #@hover (function) def percent(s: str) -> str
    return "%s %s" % ("a", s)
def percent_literal():  #@hover (function) def percent_literal() -> LiteralString
    return "%s %s" % ("a", "b")
# Literal math on constants, Python's floor division and modulo.
floor = -7 // 2  #@hover (variable) floor: Literal[-4]
rem = 7 % -2  #@hover (variable) rem: Literal[-1]
def widened(n: int):
    more = n + 1  #@hover (variable) more: int
