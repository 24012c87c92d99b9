"""The Django project (settings, urls, Celery app) and the tournament side."""

# Loading the Celery app with Django makes @shared_task bind to it in web processes too.
from tourney.celery import app as celery_app

__all__ = ("celery_app",)
