"""``tensorlab.random``: the global random state (``manual_seed`` makes every lesson repeatable)."""
from .ops.creation import get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: F401
