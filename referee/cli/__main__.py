"""``python -m referee.cli``: the command line, as the ``referee`` script runs it."""

from . import main

main()
