"""Constraints: the set of values a parameter or a sample may take (``positive``, ``unit_interval``...).

``constraint.check(value)`` is a bool tensor, one entry per value (per event, for vector constraints);
a distribution checks its parameters when made, and ``log_prob``'s argument, against them.
"""


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters (Uniform's low < high): not checked on its own."""

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _Real(Constraint):
    def check(self, value):
        return value == value  # False for NaNs


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _Bound(Constraint):
    """A half line or an interval: its bounds, and ``check`` says which are included."""

    def __init__(self, lower_bound=None, upper_bound=None):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def __repr__(self):
        bounds = [f"{n}={v}" for n, v in (("lower_bound", self.lower_bound), ("upper_bound", self.upper_bound))
                  if v is not None]
        return f"{type(self).__name__[1:]}({', '.join(bounds)})"


class _GreaterThan(_Bound):
    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_Bound):
    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_Bound):
    def __init__(self, upper_bound):
        super().__init__(upper_bound=upper_bound)

    def check(self, value):
        return value < self.upper_bound


class _Interval(_Bound):
    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Bound):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerInterval(_Bound):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerGreaterThan(_Bound):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Simplex(Constraint):
    """Vectors of non-negative entries summing to 1 (a categorical distribution's probabilities)."""

    event_dim = 1

    def check(self, value):
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _RealVector(Constraint):
    event_dim = 1

    def check(self, value):
        return (value == value).all(-1)

    def __repr__(self):
        return "IndependentConstraint(Real(), 1)"


class _Multinomial(Constraint):
    """Count vectors of non-negative entries summing to at most ``upper_bound``."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return (x >= 0).all(-1) & (x.sum(-1) <= self.upper_bound)


dependent = _Dependent()
real = _Real()
real_vector = _RealVector()
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than, greater_than_eq, less_than = _GreaterThan, _GreaterThanEq, _LessThan
unit_interval = _Interval(0.0, 1.0)
interval, half_open_interval = _Interval, _HalfOpenInterval
integer_interval = _IntegerInterval
nonnegative_integer = _IntegerGreaterThan(0)
simplex = _Simplex()
multinomial = _Multinomial
