# No fix: a syntax error leaves the file without actions.
import os

def broken(:
    pass
