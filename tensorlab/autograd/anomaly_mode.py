"""Anomaly detection: remember where each node was created, and name it when its backward fails."""
_enabled = False


def is_anomaly_enabled():
    return _enabled


class set_detect_anomaly:
    def __init__(self, mode, check_nan=True):
        global _enabled
        self._prev, _enabled = _enabled, bool(mode)
        self.check_nan = check_nan

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        global _enabled
        _enabled = self._prev
        return False


class detect_anomaly(set_detect_anomaly):
    """Context manager: backward errors say which forward operation made the failing node."""

    def __init__(self, check_nan=True):
        super().__init__(True, check_nan)
