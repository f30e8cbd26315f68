# config: {"disable": ["missing-type-hint"]}
# Turned off in [tool.pyws]: nothing is reported.
def public(a, b):
    return a
