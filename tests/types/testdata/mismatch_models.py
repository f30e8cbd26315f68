class Animal:
    def __init__(self, name: str) -> None:
        self.name = name


class Dog(Animal):
    pass


class Car:
    pass


def feed(animal: Animal, grams: int = 10) -> None: ...


def greet(name, times=1, sep=None, extra=()): ...
