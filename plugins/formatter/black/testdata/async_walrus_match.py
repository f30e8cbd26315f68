async def main():
    async with session.get(url) as response, other() as o:
        data = await response.json()
    async for item in aiter(items):
        print(item)
    result = [x async for x in aiter() if await x]
    await asyncio.sleep(1)
    return await (some_coroutine())
if (match := pattern.search(data)) is not None:
    print(match)
while (chunk := f.read(1024)):
    process(chunk)
print(y := 10)
foo(x=(y := f(x)))
match point:
    case (0, 0):
        print("Origin")
    case {"x": x, **rest}:
        pass
    case [first, *others]:
        pass
    case Point(x=0) | Point(y=0) if flag:
        pass
