"""Anomaly detection: remember where each node was created, and name it when its backward fails.

With anomaly detection on, every recorded node keeps the Python stack of the forward call that made
it (slow: debugging only). When that node's backward raises, the engine warns with that stack --
"Error detected in ExpBackward0. Traceback of forward call that caused the error: ..." -- and
re-raises the same error (with the stack attached as a note). With ``check_nan``, a backward that
returns NaN raises at once, naming the node.
See course/08_inplace_and_versions.
"""
import warnings

_enabled = False
_check_nan = True


def is_anomaly_enabled():
    return _enabled


def is_anomaly_check_nan_enabled():
    return _check_nan


class set_detect_anomaly:
    """``set_detect_anomaly(True)`` switches anomaly detection on at once; used with ``with``, the
    previous setting comes back at the end of the block."""

    def __init__(self, mode, check_nan=True):
        global _enabled, _check_nan
        self._prev = (_enabled, _check_nan)
        _enabled, _check_nan = bool(mode), bool(check_nan)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        global _enabled, _check_nan
        _enabled, _check_nan = self._prev
        return False


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly detection on inside it."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should "
                      "only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        global _enabled, _check_nan
        self._prev = (_enabled, _check_nan)
        _enabled, _check_nan = True, self.check_nan
        return None

    def __exit__(self, *exc):
        global _enabled, _check_nan
        _enabled, _check_nan = self._prev
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper
