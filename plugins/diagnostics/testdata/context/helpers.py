from typing_extensions import deprecated


def scale(value: float, factor: float = 2.0) -> float:
    return value * factor


def name_of(obj, *, default: str) -> str:
    return default


@deprecated("use scale()")
def old_scale(value):
    return value


class Config:
    def __init__(self, path: str, strict: bool = False):
        self.path = path


if True:
    def twice(a):
        pass
else:
    def twice(a, b):
        pass
