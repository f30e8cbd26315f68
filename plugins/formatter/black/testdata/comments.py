#!/usr/bin/env python
#comment without space
#!not shebang
#: doc comment
x = 1 # trailing
y = 2    #   trailing with spaces
def f( a, # comment a
       b, # comment b
):
    # inside
    pass
    # end of block

# after block
result = call(arg1,
    # standalone in brackets
    arg2)
if x:
    pass
# before else
else:
    pass
if x:
    if y:
        pass
        # deep comment
    # mid comment
# top comment
z = 3  # type: int
foo = [  # opening comment
    1, 2,
]
def g():
    return  # nothing
class C:
    x = 1
    # trailing class comment
# final comment
