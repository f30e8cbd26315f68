# Without an interpreter ("installed" absent) third-party imports are not judged.
# env: {"imports": {"requests": 0, "pkg": 1, "pkg.sub": 1}}
import requests
import pkg.sub  # want "import-not-found"
print(requests, pkg)
