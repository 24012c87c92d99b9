"""The codes of refusals made before any app's service runs: by DRF (authentication,
parsing, throttling, validation), by Django's error handlers and by the request limits.

Each value is the string clients see; ``config.error_codes`` lists them with every app's
codes as one enum in the OpenAPI error schema. This module imports nothing.
"""

from enum import StrEnum


class Code(StrEnum):
    """Why the project refused a request before (or instead of) an app's service."""

    # Django's handlers and the request limits (config.api_errors, config.request_limits).
    BAD_REQUEST = "bad_request"
    """A request Django itself refused (e.g. a bad Host header)."""
    NOT_FOUND = "not_found"
    """No such URL or object."""
    PERMISSION_DENIED = "permission_denied"
    """The caller may not do this."""
    SERVER_ERROR = "server_error"
    """A bug on our side (the traceback is in the server log)."""
    BAD_CONTENT_LENGTH = "bad_content_length"
    """A Content-Length that is not a number of bytes."""
    TOO_LARGE = "too_large"
    """A request body over the size limit (the detail has the limit)."""

    # DRF's exceptions, by their default codes.
    INVALID = "invalid"
    """The request's fields are not valid (the detail names each field's errors)."""
    PARSE_ERROR = "parse_error"
    """A body that does not parse (e.g. malformed JSON)."""

    # The JSON body parser (config.json_body): JSON that nothing behind it could hold.
    TOO_DEEP = "too_deep"
    """A JSON body nested deeper than the limit of arrays and objects."""
    LONE_SURROGATE = "lone_surrogate"
    """A JSON string holding half a UTF-16 surrogate pair (e.g. `\\ud800`): not text."""
    NUMBER_OUT_OF_RANGE = "number_out_of_range"
    """A JSON number no float holds (e.g. `1e400`), or NaN/Infinity."""
    AUTHENTICATION_FAILED = "authentication_failed"
    """A token or credentials that are not valid."""
    NOT_AUTHENTICATED = "not_authenticated"
    """No credentials were given."""
    METHOD_NOT_ALLOWED = "method_not_allowed"
    """The URL does not take this HTTP method."""
    NOT_ACCEPTABLE = "not_acceptable"
    """No answer in a media type the Accept header allows."""
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    """A body in a media type the URL does not read."""
    THROTTLED = "throttled"
    """Too many requests: wait for Retry-After seconds."""
    ERROR = "error"
    """An API exception with no more particular code."""
