"""The package: re-exports from its modules."""
from .core import Engine, start  #@ core:r:coremod Engine:r:Engine start:r:start
from . import helpers  #@ helpers:r:helpers
from .sub import *  #@ sub:r:sub

__all__ = ["Engine", "start", "helpers", "deep"]  #@ Engine:r:Engine start:r:start helpers:r:helpers deep:r:deep
