# missing-type-hint is on by default: one diagnostic per function, on its name.
def public(a, b: int, *args, **kwargs):  # want "missing-type-hint:'public' is missing type hints: parameters 'a', '*args', '**kwargs'; return type"
    def nested(x):
        return x
    return nested


def _private(a):
    return a


def typed(a: int, /, b: str = "", *, c: bool = False) -> None:
    pass


def only_return(a: int):  # want "missing-type-hint:'only_return' is missing type hints: return type"
    return a


def only_param(a, b: int = 0) -> int:  # want "missing-type-hint:'only_param' is missing type hints: parameter 'a'"
    return b


def no_params():  # want "missing-type-hint:return type"
    pass


def multi_line(  # want "missing-type-hint:parameters 'first', 'second'"
    first,
    second=2,
) -> None:
    pass


square = lambda x: x * x


class Public:
    def __init__(self, x):  # want "missing-type-hint:'__init__' is missing type hints: parameter 'x'"
        self.x = x

    def __len__(self):
        return 0

    def method(self, y) -> int:  # want "missing-type-hint:parameter 'y'"
        return 0

    def typed_self(self: "Public", y: int) -> int:
        return y

    @classmethod
    def make(cls) -> "Public":
        return cls(1)

    @staticmethod
    def util(z) -> None:  # want "missing-type-hint:parameter 'z'"
        pass


class Bare:
    def __init__(self):  # want "missing-type-hint:'__init__' is missing type hints: return type (-> None)"
        pass


class Typed:
    def __init__(self, x: int):
        self.x = x

    def __repr__(self):
        return "Typed"


class _Hidden:
    def method(self, y):
        return y
