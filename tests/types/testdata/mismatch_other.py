class Car:
    pass
