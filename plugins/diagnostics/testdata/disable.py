# config: {"disable": ["unused-import", "convention-violation"], "python-version": "3.9"}
import os


class bad_name:
    pass


print(ExceptionGroup)  # want "undefined-variable"
