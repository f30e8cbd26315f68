import sys
import os
from collections import OrderedDict, defaultdict
import requests
from mypkg import thing
from . import sibling
from .sub import other
from __future__ import annotations
import srcpkg.mod
import localmod
print(os, sys)
