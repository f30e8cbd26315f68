# Two unused names of one statement: fix-all removes the statement, not one
# name twice.
from os.path import join, split
import sys, json, re

print(sys)
