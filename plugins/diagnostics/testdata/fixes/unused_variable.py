# fix: unused-variable
def compute():
    return 1


def single():
    result = compute()  # want "unused-variable:'result'"


def twice():
    total = 1  # the second assignment is the one reported
    total = compute()  # want "unused-variable:'total'"


def caught():
    try:
        compute()
    except ValueError as err:  # want "unused-variable:'err'"
        print("failed")


def unpacked():
    low, high = 1, 2  # want "unused-variable:'low'"
    return high

