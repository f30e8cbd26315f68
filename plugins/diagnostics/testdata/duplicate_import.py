import os
import os  # want "duplicate-import:redefinition of unused 'os' from line 1"
from json import loads
from json import loads  # want "duplicate-import" "unused-import"
import re

re = 1  # want "duplicate-import"
print(os, re)

try:
    from xml.etree import cElementTree as ET
except ImportError:
    from xml.etree import ElementTree as ET  # different branches: fine
print(ET)

import os.path
import os.path  # os was used above: the rebinding inherits "used" (pyflakes)
import sys
sys.exit
import sys  # used before: not a duplicate (pyflakes)
from json import dumps  # want "unused-import"


def shadow():
    dumps = 1  # want "duplicate-import:redefinition of unused 'dumps' from line 21" "unused-variable"
    for loads in []:  # a loop variable: pyflakes' other message
        pass
