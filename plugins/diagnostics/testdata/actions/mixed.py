import os
import os
from typing import (
    Any,
    Dict,
    List,
)


def main():
    result = compute()
    try:
        value = int("3")
    except ValueError as err:
        return List
    print("done")


def compute():
    return 1
