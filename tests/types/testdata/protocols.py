import asyncio
pairs = [(1, "a")]
for num, label in pairs:  #@hover (variable) num: int
    pass
first, second = (1, "x")  #@hover (variable) first: int
head, *rest = [1, 2, 3]  #@hover (variable) head: int
counts = {"a": 1}
for key in counts:  #@hover (variable) key: str
    pass
v = counts["a"]  #@hover (variable) v: int
got = counts.get("a")  #@hover (variable) got: int | None
t = (1, "a")
second_item = t[1]  #@hover (variable) second_item: str
async def fetch() -> int:  #@hover (function) def fetch() -> CoroutineType[Any, Any, int]
    return 1
async def main():
    value = await fetch()  #@hover (variable) value: int
    return value
