def f(*args, **kwargs):
    return args, kwargs


f(1, *[2], x=3, *[4], **{"y": 5}, z=6)
f(*[1], 2, **{"a": 1})
