return = 3
