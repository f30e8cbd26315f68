from functools import total_ordering


class Animal:
    def __init__(self, name: str) -> None:
        self.name = name


class Dog(Animal):
    pass


class Car:
    pass


def feed(animal: Animal, grams: int = 10) -> None: ...


def greet(name, times=1, sep=None, extra=()): ...


@total_ordering
class Version:
    def __init__(self, major: int) -> None:
        self.major = major

    def __lt__(self, other: "Version") -> bool:
        return self.major < other.major


class Base:
    @property
    def kind(self) -> str:
        return "a"
