# With a star import any name may be defined: undefined names are not reported.
from os.path import *
from json import loads  # want "unused-import"

print(join("a", "b"), whatever)
