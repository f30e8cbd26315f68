a = f(*x, 1, k=2)
b = f(1, *x, *y, 2, **kw)
