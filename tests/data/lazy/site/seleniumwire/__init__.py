"""A stand-in for selenium-wire 5.1 (read, never imported): its drivers subclass selenium's."""
