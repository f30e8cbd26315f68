import os
import sys


class Unfinished:
    def todo(self):
        raise NotImplementedError

    def checked(self, a):
        if a:
            raise NotImplementedError("a")
        raise NotImplementedError

    def chained(self):
        raise NotImplementedError from None


def std_call(func):
    if os.name == "nt":
        return func
    else:
        return "a"


def versioned():
    if sys.version_info >= (3, 0):
        return 1


if sys.platform == "win32":
    def windows_only():
        return 1


pair = lambda x, *a, **kw: x
defaulted = lambda x=1: x
