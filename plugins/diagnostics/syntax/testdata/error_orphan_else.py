def sign(x):
    if x < 0:
        return -1
    else:
        return 1
    else:
        return 0
