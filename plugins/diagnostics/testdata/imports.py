# import-not-found: the kernel answered the workspace part in "imports".
# env: {"path": "app/main.py", "module": "app.main", "installed": ["requests"], "imports": {"os": 0, "requests": 0, "requests.adapters": 0, "nosuchlib": 0, "app.models": 2, "app.nothere": 1, ".sibling": 2, ".missing": 1, "typing": 0, "yaml": 0, "lxml": 0, "winreg": 0, "tomllib": 0, "distutils.core": 0, "ujson": 0, "simplejson": 0, "unanswered_by_kernel_is_skipped": 3}}
import os
import requests
import requests.adapters
import nosuchlib  # want "import-not-found:module 'nosuchlib' not found"
from app import models
import app.models
import app.nothere  # want "import-not-found:has no such module"
from . import sibling
from .sibling import x
from .missing import y  # want "import-not-found:relative import '.missing'"
import winreg  # stdlib on every platform list
import tomllib
import distutils.core  # want "import-not-found:removed from the standard library in Python 3.12"
from typing import TYPE_CHECKING

try:
    import ujson
except ImportError:
    ujson = None

if TYPE_CHECKING:
    import yaml  # want "import-not-found"
    print(yaml)

if os.name == "nt":
    import lxml  # platform-dependent: not reported

import whatever_the_kernel_did_not_see

print(os, requests, nosuchlib, models, app, sibling, x, y, winreg, tomllib, distutils, ujson, lxml, whatever_the_kernel_did_not_see)


def lazy():
    import simplejson  # want "import-not-found"
    return simplejson
