# Deprecations newer than the target are not reported.
# config: {"python-version": "3.10"}
import datetime
import cgi

datetime.datetime.utcnow()
print(cgi)
