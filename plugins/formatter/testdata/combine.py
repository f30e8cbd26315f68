"""Module docstring."""

from typing import List
from typing import Dict, Any
from typing import List as L, Optional
import os, sys
import numpy as np
import numpy
from os import path as p, sep
from os.path import *
from mypkg.a import CONSTANT, Class, function, _private, ANOTHER_ONE, B


def f():
    pass
