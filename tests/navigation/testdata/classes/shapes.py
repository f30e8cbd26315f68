from dataclasses import dataclass  #@ dataclass:ext
from typing import Optional  #@ Optional:ext


class Shape:  #@ Shape:d:Shape
    sides = 0  #@ sides:d:sides

    def __init__(self, name: str):  #@ __init__:d:init self:d:s1 name:d:name str:builtin
        self.name = name  #@ self:r:s1 name:d:attrname name@2:r:name
        self._area = 0.0  #@ self:r:s1 _area:d:area

    @property  #@ property:builtin
    def area(self) -> float:  #@ area:d:areaprop self:d:s2 float:builtin
        return self._area  #@ self:r:s2 _area:r:area

    @area.setter  #@ area:r:areaprop
    def area(self, v):  #@ area:d:areaprop self:d:s3 v:d:v
        self._area = v  #@ self:r:s3 _area:d:area v:r:v

    @classmethod  #@ classmethod:builtin
    def make(cls):  #@ make:d:make cls:d:cls
        return cls("x")  #@ cls:r:cls

    def describe(self):  #@ describe:d:describe self:d:s4
        return self.name, self.sides  #@ self:r:s4 name:r:attrname self@2:r:s4 sides:r:sides


class Square(Shape):  #@ Square:d:Square Shape:r:Shape
    sides = 4  #@ sides:d:sqsides

    def describe(self):  #@ describe:d:sqdescribe self:d:s5
        return "square " + self.name  #@ self:r:s5 name:r:attrname


@dataclass  #@ dataclass:ext
class Point:  #@ Point:d:Point
    x: int  #@ x:d:px int:builtin
    y: int = 0  #@ y:d:py int:builtin


def measure(s: Shape, p: Optional[Point] = None) -> Square:  #@ measure:d:measure s:d:ms Shape:r:Shape p:d:mp Optional:ext Point:r:Point Square:r:Square
    s.describe()  #@ s:r:ms describe:r:describe
    s.area = 2  #@ s:r:ms area:r:areaprop
    print(p.x, s.name)  #@ print:builtin p:r:mp x:r:px s:r:ms name:r:attrname
    return Square(s.name)  #@ Square:r:Square s:r:ms name:r:attrname


sq = Square("a")  #@ sq:d:sq Square:r:Square
sq.describe()  #@ sq:r:sq describe:r:sqdescribe
sq.make()  #@ sq:r:sq make:r:make
sq.sides  #@ sq:r:sq sides:r:sqsides
measure(sq).area  #@ measure:r:measure sq:r:sq area:r:areaprop
Point(x=1, y=2)  #@ Point:r:Point x:r:px y:r:py
Shape.make()  #@ Shape:r:Shape make:r:make
