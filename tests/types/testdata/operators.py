a = 1 + 2  #@hover (variable) a: int
b = "x" + "y"  #@hover (variable) b: str
c = 1 + 1.5  #@hover (variable) c: float
d = 1 < 2  #@hover (variable) d: bool
e = not a  #@hover (variable) e: bool
f = a and "x"  #@hover (variable) f: int | str
g = [1] + [2]  #@hover (variable) g: list[int]
h = "a" in "abc"  #@hover (variable) h: bool
def double(n):  #@hover (function) def double(n: Unknown) -> Unknown
    return n * 2
def percent(s: str):  #@hover (function) def percent(s: str) -> str
    return "%s %s" % ("a", s)
def percent_literal():  #@hover (function) def percent_literal() -> LiteralString
    return "%s %s" % ("a", "b")
