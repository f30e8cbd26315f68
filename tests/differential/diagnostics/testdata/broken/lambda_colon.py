f = lambda x x + 1
