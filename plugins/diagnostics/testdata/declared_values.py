from typing import Optional

count: int = "not an int"  # want "type-mismatch"
ratio: float = 1
ok_none: Optional[str] = None
maybe: int | None = None
name: str = b"bytes"  # want "type-mismatch"
flag: bool = 1  # want "type-mismatch"
items: list[int] = {}  # want "type-mismatch"
anything = "no annotation"
unknown_class: Widget = 3  # want "undefined-variable"


class Config:
    retries: int = "3"  # want "type-mismatch"
    timeout: float = 2.5


def label(n: int) -> str:
    if n < 0:
        return None  # want "type-mismatch"
    return "n"


def total(xs: list[int]) -> int:
    def inner() -> str:
        return "nested returns belong to inner"

    return 0


def numbers() -> int:
    yield "a generator's annotation describes the generator"


def from_param(text: str) -> int:
    return text  # want "type-mismatch"


def narrowed(value: int) -> bool:
    return value


def unannotated():
    return "anything"


async def fetch() -> int:
    return "async returns are checked too"  # want "type-mismatch"
