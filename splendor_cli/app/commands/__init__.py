"""The command bodies, one module a family of commands (routes.py says which module holds each
command; registry.py imports them all for typer, the fast path only the one it needs). Each body
reads its arguments, asks the services (app/services/) and the floors below, and prints.

Importing this package loads nothing.
"""
