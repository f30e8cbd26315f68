# fix: duplicate-import
import os
import os  # want "duplicate-import:redefinition of unused 'os' from line 2"
from json import loads
from json import loads  # want "duplicate-import:redefinition of unused 'loads' from line 4"
from pickle import dumps
from json import dumps  # want "duplicate-import:redefinition of unused 'dumps' from line 6"

print(os, loads, dumps)
