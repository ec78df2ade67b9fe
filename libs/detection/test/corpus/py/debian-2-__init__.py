"""Provides common classes and functions most users will want access to."""
import threading


class _RequestConfig(object):
    """
    RequestConfig thread-local singleton

    The Routes RequestConfig object is a thread-local singleton that should
    b