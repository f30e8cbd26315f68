import pkg  #@ pkg:r:pkg
import pkg.core  #@ pkg:r:pkg core:r:coremod
import pkg.helpers as h  #@ pkg:r:pkg helpers:r:helpers h:r:h
from pkg import Engine, start as begin, deep  #@ pkg:r:pkg Engine:r:Engine start:r:start begin:r:begin deep:r:deep
from pkg.core import Engine as CoreEngine  #@ pkg:r:pkg core:r:coremod Engine:r:Engine CoreEngine:r:CoreEngine
import json  #@ json:ext

e = Engine()  #@ e:d:e Engine:r:Engine
e.run(2)  #@ e:r:e run:r:run
pkg.core.Engine().run(3)  #@ pkg:r:pkg core:r:coremod Engine:r:Engine run:r:run
CoreEngine().run(4)  #@ CoreEngine:r:CoreEngine run:r:run
begin(e)  #@ begin:r:begin e:r:e
h.shout("Engine")  #@ h:r:h shout:r:shout
deep()  #@ deep:r:deep
pkg.start(e)  #@ pkg:r:pkg start:r:start e:r:e
json.dumps({})  #@ json:ext dumps:ext
