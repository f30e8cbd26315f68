# __all__ makes imports used; undefined names in __all__ are reported.
from json import dumps, loads
from base64 import b64encode  # want "unused-import"

__all__ = ["dumps", "nope"]  # want "undefined-variable:'nope' in __all__"
__all__ += ["loads"]
