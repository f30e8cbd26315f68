# config: {"enable": ["missing-type-hint"], "missing-type-hint": {"private": true, "returns": false}}
def _private(a):  # want "missing-type-hint:'a'"
    return a


def public(a: int):
    return a
