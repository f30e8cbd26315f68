"""Prints a stock report. Contains a deliberate syntax error for the demo:
ask get_diagnostics about this file."""

from inventory import Stock


def report(stock: Stock) -> None
    print(f"{stock.count} units")
