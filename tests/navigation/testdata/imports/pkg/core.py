"""Core module."""
from .helpers import shout as loud  #@ helpers:r:helpers shout:r:shout loud:r:loud


class Engine:  #@ Engine:d:Engine
    """An engine."""

    def run(self, speed: int) -> str:  #@ run:d:run speed:d:speed int:builtin str:builtin
        return loud(str(speed))  #@ loud:r:loud str:builtin speed:r:speed


def start(engine: "Engine") -> "Engine":  #@ start:d:start engine:d:engine Engine:r:Engine Engine@2:r:Engine
    engine.run(speed=1)  #@ engine:r:engine run:r:run speed:r:speed
    return engine  #@ engine:r:engine
