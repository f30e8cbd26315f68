# A decorator that wraps with functools.wraps and calls back the function
# that applies it (Django's mark_safe and _safety_decorator): call-site
# return inference nests through wraps' _Wrapped.
from functools import wraps


class Safe(str):
    pass


def _safety_decorator(safety_marker, func):
    @wraps(func)
    def wrapped(*args, **kwargs):
        return safety_marker(func(*args, **kwargs))

    return wrapped


def mark_safe(s):
    if hasattr(s, "__html__"):
        return s
    if callable(s):
        return _safety_decorator(mark_safe, s)
    return Safe(s)
