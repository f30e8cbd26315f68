x = 10  #@hover (variable) x: Literal[10]
X = 10  #@hover (constant) X: Literal[10]
NAME = "a"  #@hover (constant) NAME: Literal['a']
s = "a"  #@hover (variable) s: Literal['a']
f = 1.5  #@hover (variable) f: float
n = None  #@hover (variable) n: None
b = True  #@hover (variable) b: Literal[True]
# A name one plain assignment binds is narrowed to its value where its
# own scope (or, for a function's, a closure) reads it; a module's
# read from a function has its declared, widened type.
greeting = "hello"
print(greeting)  #@read greeting (variable) greeting: Literal['hello']
def shout():
    suffix = "!" if greeting else "?"
    print(suffix)  #@read suffix (variable) suffix: Literal['!', '?']
    return greeting  #@read greeting (variable) greeting: str


def print_deps(node):  #@hover (function) def print_deps(node: Unknown) -> (LiteralString | Literal[''])
    # LiteralString keeps Literal[''] beside it; a plain str absorbs it.
    out = []
    for parent in sorted(node.parents):
        out.append("%s.%s" % parent.key)
    if out:
        return " ... (%s)" % ", ".join(out)
    return ""


def joined(flag, words: list[str]):  #@hover (function) def joined(flag: Unknown, words: list[str]) -> str
    if flag:
        return " ".join(words)
    return ""


def default_key_func(key, key_prefix, version):  #@hover (function) def default_key_func(key: Unknown, key_prefix: Unknown, version: Unknown) -> LiteralString
    # Unknown tuple elements take the LiteralString overload of str.__mod__.
    return '%s:%s:%s' % (key_prefix, version, key)
