from b import y
from a import x
value = x(y)
