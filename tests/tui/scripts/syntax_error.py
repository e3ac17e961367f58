import minigrad as mg

def broken(:
    pass
