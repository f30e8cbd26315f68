import os; import sys
x = 1; import re
import abc


@decorator
def g():
    pass
