# NameError guards, try/except ImportError, conditional definitions.
try:
    unicode
except NameError:
    unicode = str

try:
    import simplejson as json
except ImportError:
    import json

if json:
    pass


def outer():
    value = 1

    def inner():
        nonlocal value
        value = 2

    return inner


def glob():
    global later
    later = 1


print(later)
print(lambda q: q + 1)
print({k: v for k, v in {}.items()})
