"""Restocks an item. Has an unused import and unsorted imports for the
demo: ask get_code_actions about this file."""

import sys
import os

from inventory import Stock


def restock(stock: Stock, amount: int) -> None:
    stock.count += amount
    print(f"restocked to {stock.count}", file=sys.stderr)
