import sys
import os
from mypkg import thing
import requests


def main(argv):
    return thing(os.path.join(*argv), requests, sys)
