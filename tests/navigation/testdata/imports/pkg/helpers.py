def shout(text):  #@ shout:d:shout text:d:text
    return text.upper()  #@ text:r:text
