import math
import os
import os.path
import json as j
from time import sleep
from hashlib import sha256


math.sqrt()  # want "missing-argument"
math.sqrt("4")  # want "type-mismatch"
math.sqrt(4)
math.factorial(4.0)  # want "type-mismatch"
os.path.join()  # want "missing-argument"
os.path.join("a", 1)  # want "type-mismatch"
os.path.join("a", b"b")  # mixing str and bytes: not judged per argument
j.dumps()  # want "missing-argument"
j.dumps({}, indent=2, sort_keys=True)
j.dumps({}, indent=2.5)  # want "type-mismatch"
j.loads(b"{}", object_hook=dict)
sleep("1")  # want "type-mismatch"
sha256("text")  # want "type-mismatch"
sha256(b"text")
len()  # want "missing-argument"
len(5)  # want "type-mismatch"
len("abc")
sorted([3, 1], reverse=True)
open("f", "r", encoding="utf-8")
open(3)
print("a", end=5)  # want "type-mismatch"
range(10)
range("10")  # want "type-mismatch"
isinstance(1)  # want "missing-argument"


def shadow():
    def len(x, y):
        return 0
    return len(1, 2)
