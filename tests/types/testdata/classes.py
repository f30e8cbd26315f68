from enum import Enum
from typing import Generic, TypeVar, Self
T = TypeVar("T")
class Color(Enum):
    RED = 1
class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item
    def get(self) -> T:
        return self.item
    @classmethod
    def make(cls) -> Self:  #@hover (method) def make(cls: type[Self@Box[T@Box]]) -> Self@Box[T@Box]
        return cls(None)
box = Box(1)  #@hover (variable) box: Box[int]
item = box.get()  #@hover (variable) item: int
RED = Color.RED  #@hover (constant) RED: Literal[Color.RED]
klass = Box  #@hover (type) klass = Box
class Base:
    def clone(self):
        return self
class Child(Base):
    pass
twin = Child().clone()  #@hover (variable) twin: Child
class Settings:
    @classmethod
    def setup(cls):
        cls.registry = {"a": 1}
reg = Settings.registry  #@hover (variable) reg: dict[str, int]
