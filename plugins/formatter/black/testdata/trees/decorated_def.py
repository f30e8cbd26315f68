@dec(1)
async def f(a, *, b: int = 2, **kw) -> "T":
    return await g(a)
