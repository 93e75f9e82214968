"""``python -m sixtysix`` runs the command line."""

from sixtysix.cli import main

if __name__ == "__main__":
    main()
