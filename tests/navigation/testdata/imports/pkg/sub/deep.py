def deep():  #@ deep:d:deep
    return 1


def _private():  #@ _private:d:private
    return 2
