# isort: skip_file
import z
import a
