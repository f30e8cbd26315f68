# fmt: off
custom_formatting = [
    0,  1,  2,
    3,  4,  5,
]
# fmt: on
regular_formatting = [
    0,  1,  2,
]
x = [1,2,3]  # fmt: skip
def f(a,b):
    # fmt: off
    y = [1,
         2]
    # fmt: on
    return a+b
