print "hello", x
exec "code"
print >> f, "valid py3 expression, not flagged" if 0 else 1
