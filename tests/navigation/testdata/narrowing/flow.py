"""Narrowing and reaching definitions: the type of a name at its use."""

import os
from typing import Optional, Union


class Node:
    def __init__(self, name: str, parent: "Optional[Node]" = None) -> None:
        self.name = name
        self.parent = parent
        self.size: int | None = None

    def depth(self) -> int:
        if self.parent is not None:
            return self.parent.depth() + 1
        return 0

    def label(self) -> str:
        if self.size is None:
            return self.name
        return self.name + str(self.size)


def reassigned(flag: bool) -> str:
    value = 1
    print(value)
    value = "one"
    return value


def branches(flag: bool):
    if flag:
        result = 1
    else:
        result = "a"
    return result


def is_none(name: Optional[str]) -> str:
    if name is None:
        return "anonymous"
    return name.upper()


def is_not_none(node: Node | None) -> int:
    if node is not None:
        return node.depth()
    print(node)
    return 0


def equals_none(path: str | None) -> str:
    if path == None:
        path = os.getcwd()
    return path


def by_isinstance(value: Union[int, str, bytes]) -> str:
    if isinstance(value, str):
        return value.upper()
    if isinstance(value, (bytes, bytearray)):
        return value.decode("utf-8")
    return str(value + 1)


def not_isinstance(value: int | str) -> int:
    if not isinstance(value, int):
        value = int(value)
    return value


def truthiness(items: list[str] | None, node: Node | None) -> int:
    if not items:
        return 0
    if node:
        print(node.name)
    return len(items)


def guard(limit: int | None) -> int:
    if limit is None:
        raise ValueError("no limit")
    total = limit * 2
    return total


def chains(a: str | None, b: int | None) -> int:
    if a is not None and b is not None:
        return len(a) + b
    if a is None or b is None:
        return 0
    return b


def asserted(value: object) -> int:
    assert isinstance(value, int)
    return value


def declared() -> int:
    count: int | None = 3
    print(count)
    return count


def loop(items: list[str]) -> str:
    last = None
    for item in items:
        if item:
            last = item
    if last is None:
        return ""
    return last


def conditional(text: str | None) -> str:
    return text if text is not None else ""


def attribute(node: Node) -> int:
    if node.size is not None:
        return node.size
    return 0


def walrus(data: dict[str, int]) -> int:
    if (found := data.get("a")) is not None:
        return found
    return 0


def loop_reassign(limit: int) -> int | str:
    step = 0
    while step < limit:
        step = step + 1
    mode = "fast" if limit else None
    if mode:
        return mode
    return step


LEVEL = os.environ.get("LEVEL")
if LEVEL is None:
    LEVEL = "info"
print(LEVEL)
