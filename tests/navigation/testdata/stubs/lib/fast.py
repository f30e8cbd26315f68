def compute(n):  #@ compute:d:compute n:d:n
    return n * 2  #@ n:r:n
