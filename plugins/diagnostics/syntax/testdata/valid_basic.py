def f(a, b=1):
    """Doc."""
    return a


class A(B, metaclass=M):
    x: int = [i for i in range(3) if i]

    async def g(self):
        async with x as y:
            await y
