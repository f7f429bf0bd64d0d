"""What the foundation announces to the apps above it, which it never imports.

``worker_deleting`` is sent inside the transaction that deletes a worker, before the
delete (``worker``). A receiver may answer a dict of what it is about to remove
(``{"shortterm_chunks": 1200}``) and arrange its upkeep for after the commit; the answers
are summed into what ``worker_delete`` returns.
"""

from django.dispatch import Signal

worker_deleting = Signal()
