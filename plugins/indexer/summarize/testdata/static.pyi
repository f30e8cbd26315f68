# targets: 3.11/linux 3.13/win32
import os
import sys
from typing import TYPE_CHECKING

if sys.version_info >= (3, 12):
    new12 = 1
    if sys.platform == "win32":
        new12_win = 1
    else:
        new12_other = 1
elif sys.version_info >= (3, 10):
    old10 = 1
else:
    ancient = 1

if sys.version_info < (3, 12):
    def before12() -> None: ...

if sys.version_info[0] == 3:
    three = 1
if sys.version_info[:2] >= (3, 13):
    slice13 = 1
if sys.version_info >= (3, 11, 2):
    micro = 1

if sys.platform == "linux":
    linux = 1
if sys.platform != "linux":
    notlinux = 1
if sys.platform.startswith("win"):
    win = 1
if sys.platform in ("linux", "darwin"):
    unixy = 1
if os.name == "nt":
    nt = 1
if not (sys.platform == "win32") and sys.version_info >= (3, 12):
    combined = 1
if sys.platform == "win32" or sys.version_info >= (3, 12):
    either = 1
if sys.version_info >= (3, 12) and unknown():
    maybe = 1

if TYPE_CHECKING:
    tc = 1
else:
    runtime = 1

if sys.version_info >= (3, 12):
    V = int
else:
    V = str
