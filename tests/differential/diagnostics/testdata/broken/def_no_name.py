def (x):
    pass
