import sys
import os


def f(x):
    return x
    print("never")  # want "unreachable-code"
    print("also never")


def g(x):
    if x:
        raise ValueError(x)
    else:
        return 1
    x += 1  # want "unreachable-code"


def h(items):
    for i in items:
        if i:
            continue
            print(i)  # want "unreachable-code"
        break
        print("after break")  # want "unreachable-code"


def exits():
    sys.exit(1)
    print("gone")  # want "unreachable-code"


def exits2():
    os._exit(1)
    cleanup()  # want "unreachable-code" "undefined-variable"


def loop():
    while True:
        pass
    print("after infinite loop")  # want "unreachable-code"


def loop_with_break():
    while True:
        break
    print("reachable")


def empty_generator():
    return
    yield


def disabled():
    if False:
        print("deliberately disabled code is not reported")


def with_raise(cm):
    with cm:
        raise ValueError
    print("reachable: the context manager may swallow the exception")


def try_all(x):
    try:
        return x()
    except ValueError:
        raise
    except Exception:
        return None
    print("unreachable")  # want "unreachable-code"


def try_finally(x):
    try:
        x()
    finally:
        print("cleanup")
    print("reachable")


def matches(cmd):
    match cmd:
        case "a":
            return 1
        case _:
            return 2
    print("unreachable")  # want "unreachable-code"


def matches_partial(cmd):
    match cmd:
        case "a":
            return 1
    print("reachable")
