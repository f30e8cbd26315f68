X: int
