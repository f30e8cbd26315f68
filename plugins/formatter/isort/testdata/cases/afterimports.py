import os
# comment then code
x = 1
