"""tensorlab.optim: algorithms that update parameters from their gradients.

``Optimizer`` (optimizer.py) holds parameter groups and per-parameter state; each algorithm is one
short file: ``SGD`` (sgd.py), ``Adam`` (adam.py), ``AdamW`` (adamw.py), ``RMSprop`` (rmsprop.py),
``Adagrad`` (adagrad.py). ``lr_scheduler`` changes the learning rate as training goes.
See course/16_training_loop and course/17_optimizers_and_schedules.
"""
from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
