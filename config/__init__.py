"""The Django project: settings, URLs, the Celery app, health and the API's error shape.

It sits above every app (``leagues`` -> ``tourney`` -> ``games`` -> ``games/engine``) and
wires them together; no app imports it except for the Celery app and the error renderer.
"""

# Loading the Celery app with Django makes @shared_task bind to it in web processes too.
from config.celery import app as celery_app

__all__ = ("celery_app",)
