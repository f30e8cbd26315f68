print("a", sep="", "b")
