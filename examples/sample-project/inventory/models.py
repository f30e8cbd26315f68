"""Domain records of the inventory."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Item:
    """One kind of thing on the shelves.

    Args:
        sku: Stock keeping unit, unique per item.
        name: Human-readable name.
        price: Unit price in euros.
    """

    sku: str
    name: str
    price: float


@dataclass
class Stock:
    """Quantities on hand, by SKU."""

    items: dict[str, Item] = field(default_factory=dict)
    quantities: dict[str, int] = field(default_factory=dict)

    def add(self, item: Item, quantity: int = 1) -> None:
        """Put quantity units of item on the shelves.

        Raises:
            ValueError: if quantity is not positive.
        """
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self.items[item.sku] = item
        self.quantities[item.sku] = self.quantities.get(item.sku, 0) + quantity

    def remove(self, sku: str, quantity: int = 1) -> int:
        """Take units off the shelves and return how many are left."""
        left = self.quantities.get(sku, 0) - quantity
        if left < 0:
            raise ValueError(f"only {self.quantities.get(sku, 0)} of {sku} in stock")
        self.quantities[sku] = left
        return left

    @property
    def count(self) -> int:
        """Total number of units."""
        return sum(self.quantities.values())
