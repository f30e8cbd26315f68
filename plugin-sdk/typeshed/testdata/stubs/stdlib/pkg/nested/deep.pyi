DEPTH: int
