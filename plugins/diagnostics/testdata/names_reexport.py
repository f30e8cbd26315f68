# explicit re-exports (import x as x) are used by definition
# env: {"path": "pkg/__init__.py", "module": "pkg", "init": true}
from json import dumps as dumps
import base64 as base64
from . import sub  # want "unused-import:re-export"
from .mod import thing  # want "unused-import"
