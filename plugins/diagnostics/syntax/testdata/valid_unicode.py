# -*- coding: utf-8 -*-
näme = "ü"
名前 = f"{näme!r:>10}"
if x:  # comment
    pass
elif y:
    pass
else:
    x = (1 +
         2)
    try_ = 1 if x else \
  2
