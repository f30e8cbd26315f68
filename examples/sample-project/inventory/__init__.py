"""A small inventory package: the sample workspace served by `make run`."""

from .models import Item, Stock
from .pricing import apply_discount, total_value

__all__ = ["Item", "Stock", "apply_discount", "total_value"]
