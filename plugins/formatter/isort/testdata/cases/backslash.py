from os import path, \
    sep
import a.b.c as d, e
from . import (x)
from .. import y
from ..pkg import z
from .a import b as c
x = [path, sep]
