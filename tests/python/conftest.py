# pytest puts this folder on sys.path (rootdir-relative "prepend" import mode), so the test files
# import their shared helpers with `from helpers import ...`. onegrad itself comes from PYTHONPATH
# (build/python) or an installed package.
