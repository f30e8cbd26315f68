"""Prices and discounts."""

from .models import Item, Stock

VAT_RATE = 0.21


def apply_discount(item: Item, percent: float) -> float:
    """Return the unit price of item after a discount.

    Args:
        item: The item to price.
        percent: Discount between 0 and 100.

    Returns:
        The discounted unit price.
    """
    if not 0 <= percent <= 100:
        raise ValueError("percent must be between 0 and 100")
    return round(item.price * (1 - percent / 100), 2)


def total_value(stock: Stock, with_vat: bool = False) -> float:
    """Value of everything in stock."""
    value = sum(stock.items[sku].price * qty for sku, qty in stock.quantities.items())
    if with_vat:
        value *= 1 + VAT_RATE
    return round(value, 2)
