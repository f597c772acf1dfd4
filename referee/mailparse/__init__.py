"""Reading a raw mail's headers, below every other layer but the engine (standard library only).

- :mod:`.senders`: who sent a mail (``From``, ``Sender``, ``Reply-To``), addresses compared and keyed.
- :mod:`.unreadable`: why a stored mail cannot be read at all (too large, not a mail, poison).

The store files incoming mail with these, the order language reads addresses with them, and the intake
answers with them; so they sit below all three.
"""
