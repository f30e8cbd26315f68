from inventory import Item, Stock, apply_discount, total_value


def test_discount():
    assert apply_discount(Item("a1", "apple", 2.0), 50) == 1.0


def test_total_value():
    stock = Stock()
    stock.add(Item("a1", "apple", 2.0), 3)
    assert total_value(stock) == 6.0
