import os


def f():
    import sys
    import abc
    from collections import deque, Counter

    return sys, abc


try:
    import simplejson as json
except ImportError:
    import json

if True:
    import b
    import a
x = 1
