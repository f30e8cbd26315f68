# config: {"python-version": "3.12"}
import imp  # want "deprecated:module 'imp'"
import datetime
import unittest
from datetime import datetime as dt
from locale import getdefaultlocale  # want "deprecated"
from typing_extensions import deprecated
import warnings

try:
    import asyncore
except ImportError:
    asyncore = None

datetime.datetime.utcnow()  # want "deprecated:datetime.datetime.now"
dt.utcnow()  # want "deprecated"
dt.now()


@deprecated("use new_api")
def old_api():
    pass


@warnings.deprecated("gone soon")
class OldThing:
    pass


old_api()  # want "deprecated:'old_api' is deprecated: use new_api"
OldThing()  # want "deprecated:gone soon"


class T(unittest.TestCase):
    def test(self):
        self.assertEquals(1, 1)  # want "deprecated:use 'assertEqual'"
        self.assertEqual(1, 1)

    @deprecated("no")
    def helper(self):
        pass

    def uses(self):
        self.helper()  # want "deprecated"


class Own:
    def assertEquals(self, a, b):  # want "convention-violation"
        pass

    def test(self):
        self.assertEquals(1, 2)


print(imp, getdefaultlocale, asyncore)
