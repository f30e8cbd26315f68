x = 10  #@hover (variable) x: Literal[10]
X = 10  #@hover (constant) X: Literal[10]
NAME = "a"  #@hover (constant) NAME: Literal['a']
s = "a"  #@hover (variable) s: Literal['a']
f = 1.5  #@hover (variable) f: float
n = None  #@hover (variable) n: None
b = True  #@hover (variable) b: Literal[True]
