WINNER: str
