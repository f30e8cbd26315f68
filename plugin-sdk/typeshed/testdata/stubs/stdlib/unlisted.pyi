Y: int
