# fix: unused-import
# env: {"path": "pkg/__init__.py", "module": "pkg", "init": true}
"""No fix where removing is not obviously right."""
import os  # want "unused-import:'os' imported but unused; to re-export it"
import json; print(1)  # want "unused-import:'json'"


def f():
    import re  # want "unused-import:'re'"
