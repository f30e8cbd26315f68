def grüße(名前,, b):
    return 名前
