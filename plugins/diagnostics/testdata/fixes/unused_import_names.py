# fix: unused-import
import os, sys, json  # want "unused-import:'os'" "unused-import:'json'"
from collections import OrderedDict as OD, defaultdict  # want "unused-import:'collections.OrderedDict as OD'"
from typing import (
    Any,
    Dict,  # want "unused-import:'typing.Dict'"
    List,
)
import re; print(re)

print(sys, defaultdict, Any, List)
