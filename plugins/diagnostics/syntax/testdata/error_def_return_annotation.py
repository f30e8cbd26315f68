def report(stock: Stock) -> None
    print(f"{stock.count} units")
