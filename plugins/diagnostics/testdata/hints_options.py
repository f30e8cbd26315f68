# config: {"missing-type-hint": {"private": true, "returns": false}}
def _private(a):  # want "missing-type-hint:'_private' is missing type hints: parameter 'a'"
    return a


def public(a: int):
    return a
