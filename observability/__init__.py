"""What the service tells its operators: the context every log line carries
(``observability.context``), the log formats (``observability.logs``), the counters and
histograms of what happens (``observability.metrics``) and the error reports' scrubbing
(``observability.scrub``, ``observability.sentry``).

It sits at the bottom with ``refusals`` and imports nothing from the project, so any app may
count an event or bind a table to the log context; what reads the database (the scrape-time
gauges, the /metrics view) lives in ``config``.
"""
