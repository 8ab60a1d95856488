"""For people: the pieces boards are drawn with, and the log as text (rich; loaded only to print)."""
