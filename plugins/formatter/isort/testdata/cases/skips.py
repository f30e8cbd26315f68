import z
import a  # isort: skip
import m

# isort: off
import q
import c
# isort: on

import y
import b
s = """
import not_an_import
import also_not
"""
