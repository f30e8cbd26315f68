# config: {"enable": ["missing-type-hint"]}
def public(a, b: int, *args, **kwargs):  # want "missing-type-hint:'a'" "missing-type-hint:'args'" "missing-type-hint:'kwargs'" "missing-type-hint:return"
    def nested(x):
        return x
    return nested


def _private(a):
    return a


def typed(a: int, /, b: str = "", *, c: bool = False) -> None:
    pass


class Public:
    def __init__(self, x):  # want "missing-type-hint:'x'"
        self.x = x

    def __len__(self):
        return 0

    def method(self, y) -> int:  # want "missing-type-hint:'y'"
        return 0

    @classmethod
    def make(cls) -> "Public":
        return cls(1)

    @staticmethod
    def util(z) -> None:  # want "missing-type-hint:'z'"
        pass


class _Hidden:
    def method(self, y):
        return y
