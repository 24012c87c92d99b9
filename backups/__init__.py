"""Backups of the database and their restore (``manage.py backup`` / ``manage.py restore``)."""
