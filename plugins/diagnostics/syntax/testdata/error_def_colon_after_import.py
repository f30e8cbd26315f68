from x import y


def report(stock) -> None
    print(stock)
