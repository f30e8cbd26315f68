print("é", (
