# fix: unused-variable
def parameter(value):
    value = 1  # want "unused-variable:'value'"
