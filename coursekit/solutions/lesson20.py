"""Reference solutions of course/20_watching_training.ipynb's exercises (checks: coursekit/lesson20.py)."""
from tensorlab.utils.tensorboard import event_files, read_events


# Exercise 1: TensorBoard's smoothing slider -- an exponential moving average, debiased.
def smooth(values, weight):
    smoothed, last = [], 0.0
    for i, value in enumerate(values, 1):
        last = weight * last + (1 - weight) * value       # the running average, started at 0 ...
        smoothed.append(last / (1 - weight ** i))          # ... divided by the weight its terms sum to
    return smoothed


# Exercise 2: read one curve back from the event files of a log folder.
def scalars(log_dir, tag):
    points = []
    for path in event_files(log_dir):
        for event in read_events(path):
            for value in event.summary.value:               # the first event of a file has no summary
                if value.tag == tag:
                    points.append((event.step, value.simple_value))
    return points
