"""The operator's command-line plumbing shared by every ``*/cli.py``: opening the store, errors, JSON
output, the help texts, and ``referee db``."""
