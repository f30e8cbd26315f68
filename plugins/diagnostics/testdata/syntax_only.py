# A file with a syntax error gets only syntax-error diagnostics.
import os


def f(:  # want "syntax-error"
    pass
