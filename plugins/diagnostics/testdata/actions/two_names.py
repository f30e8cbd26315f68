# Two unused names of one statement: the fix of either removes both (the
# statement when no name is left), as Ruff's does; so does fix-all.
from os.path import join, split
import sys, json, re

print(sys)
