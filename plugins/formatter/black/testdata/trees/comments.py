import os  # trailing
# own line
x = [
    1,  # after one
]
