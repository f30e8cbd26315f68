# Signatures of functions imported from other workspace files (context files).
# env: {"path": "app/main.py", "module": "app.main", "context": ["helpers.py=app.helpers"]}
from .helpers import scale, name_of, Config, twice, old_scale
from app.helpers import scale as s2

scale()  # want "missing-argument"
scale("x")  # want "type-mismatch"
scale(1)
s2()  # want "missing-argument"
name_of(1)  # want "missing-argument:'default'"
Config()  # want "missing-argument:'path'"
Config("p", strict=1)  # want "type-mismatch"
twice()
old_scale(1)  # want "deprecated:'old_scale' is deprecated: use scale()"
