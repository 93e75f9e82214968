"""Computer players. They receive a seat's :class:`~sixtysix.core.view.View`, nothing more."""
