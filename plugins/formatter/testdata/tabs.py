import sys


def f(a):
    if a:
        return """multi
    line string stays"""
    return [
        1,
        2,
    ]
