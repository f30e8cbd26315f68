from mod import item10, item2, item1, Item3, ITEM_4
import lib10
import lib2
import Lib1
import _private
from a1 import x
from A2 import y
from a10 import z
x = 1
