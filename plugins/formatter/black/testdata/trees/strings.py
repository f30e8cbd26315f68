a = "x" f"{b!r:>3}" r"\d"
c = """doc
string"""
