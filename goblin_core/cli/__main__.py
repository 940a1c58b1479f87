"""``python -m goblin_core.cli`` runs the ``goblin`` command."""

from goblin_core.cli.app import main

main()
