# config: {"python-version": "3.8"}
# env: {"installed": [], "imports": {"zoneinfo": 0, "graphlib": 0, "asyncore": 0, "tomllib": 0}}
import zoneinfo  # want "import-not-found"
import tomllib  # want "import-not-found"
import asyncore  # want "deprecated:since Python 3.6"
print(zoneinfo, tomllib, asyncore)
