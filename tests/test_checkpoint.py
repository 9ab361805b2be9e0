"""Activation checkpointing (tensorlab/utils/checkpoint.py) against PyTorch's torch.utils.checkpoint on
the same inputs: gradients with and without checkpointing, random state, warnings, errors, retain_graph
and double backward, checkpoint_sequential. Inputs are built in NumPy; no test relies on two RNGs."""
import importlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tensorlab

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 6))
WEIGHTS = [RNG.standard_normal((6, 6)) * 0.5 for _ in range(4)]
BOTH = pytest.mark.parametrize("use_reentrant", [True, False])


def ckpt(lib):
    """tensorlab.utils.checkpoint or torch.utils.checkpoint."""
    return importlib.import_module(lib.__name__ + ".utils.checkpoint")


def libs(torch):
    return (tensorlab, torch)


def mlp(lib, depth=4):
    """A Sequential of Linear+Tanh pairs with the weights of WEIGHTS (float64)."""
    layers = []
    for w in WEIGHTS[:depth]:
        linear = lib.nn.Linear(6, 6).double()
        with lib.no_grad():
            linear.weight.copy_(lib.tensor(w))
            linear.bias.fill_(0.1)
        layers += [linear, lib.nn.Tanh()]
    return lib.nn.Sequential(*layers)


def grads(model, x):
    return [x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()]


def assert_all_close(a, b):
    assert len(a) == len(b)
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v, rtol=1e-10, atol=1e-12)


# -- gradients --------------------------------------------------------------------------------------
@BOTH
def test_mlp_gradients_equal_without_checkpointing_and_pytorchs(torch, use_reentrant):
    results = {}
    for lib in libs(torch):
        for checkpointed in (False, True):
            model, x = mlp(lib), lib.tensor(X, requires_grad=True)
            if checkpointed:
                y = ckpt(lib).checkpoint(model, x, use_reentrant=use_reentrant)
            else:
                y = model(x)
            assert y.requires_grad and y.grad_fn is not None
            (y ** 2).sum().backward()
            results[lib.__name__, checkpointed] = grads(model, x)
    assert_all_close(results["tensorlab", True], results["tensorlab", False])
    assert_all_close(results["tensorlab", True], results["torch", True])


def several(lib, x, w, scale, mode="tanh", bias=None):
    """Several tensor inputs and non-tensor arguments (a float, a string)."""
    h = x.mm(w) * scale
    h = h.tanh() if mode == "tanh" else h.sigmoid()
    return h if bias is None else h + bias


@BOTH
def test_several_inputs_and_non_tensor_arguments(torch, use_reentrant):
    results = {}
    for lib in libs(torch):
        x, w = lib.tensor(X, requires_grad=True), lib.tensor(WEIGHTS[0], requires_grad=True)
        out = ckpt(lib).checkpoint(lambda a, b, s, m: several(lib, a, b, s, m), x, w, 1.5, "sigmoid",
                                   use_reentrant=use_reentrant)
        out.exp().sum().backward()
        results[lib.__name__] = [out.detach().numpy(), x.grad.numpy(), w.grad.numpy()]
        x2, w2 = lib.tensor(X, requires_grad=True), lib.tensor(WEIGHTS[0], requires_grad=True)
        several(lib, x2, w2, 1.5, "sigmoid").exp().sum().backward()
        assert_all_close(results[lib.__name__][1:], [x2.grad.numpy(), w2.grad.numpy()])
    assert_all_close(results["tensorlab"], results["torch"])


def test_keyword_arguments_with_use_reentrant_false(torch):
    results = {}
    for lib in libs(torch):
        x, w = lib.tensor(X, requires_grad=True), lib.tensor(WEIGHTS[0], requires_grad=True)
        b = lib.tensor(X[0], requires_grad=True)
        out = ckpt(lib).checkpoint(lambda a, b_, scale=1.0, bias=None: several(lib, a, b_, scale, bias=bias),
                                   x, w, scale=0.5, bias=b, use_reentrant=False)
        out.pow(2).sum().backward()
        results[lib.__name__] = [x.grad.numpy(), w.grad.numpy(), b.grad.numpy()]
    assert_all_close(results["tensorlab"], results["torch"])


def test_a_tuple_of_outputs_and_an_output_that_needs_no_grad(torch):
    results = {}
    for lib in libs(torch):
        for use_reentrant in (True, False):
            x = lib.tensor(X, requires_grad=True)
            a, b, n = ckpt(lib).checkpoint(lambda t: (t.exp(), t.sin() * 2, lib.tensor(X).sum()), x,
                                           use_reentrant=use_reentrant)
            (a.sum() + (b * b).sum()).backward()
            results[lib.__name__, use_reentrant] = [x.grad.numpy(), np.array(n.requires_grad)]
    # a Function's outputs all require grad (reentrant); otherwise the constant stays a constant
    assert results["torch", True][1] and not results["torch", False][1]
    for key in results:
        assert_all_close(results[key], results["torch", key[1]])


# -- random state -----------------------------------------------------------------------------------
def dropout_grads(lib, use_reentrant, checkpointed, preserve=True):
    """Gradients of a dropout MLP run after manual_seed(0), and the next random draw after backward."""
    lib.manual_seed(0)
    model, x = mlp(lib, 2), lib.tensor(X, requires_grad=True)
    net = lib.nn.Sequential(model[0], lib.nn.Dropout(0.5), model[1], model[2])
    if checkpointed:
        y = ckpt(lib).checkpoint(net, x, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    else:
        y = net(x)
    y.sum().backward()
    return grads(net, x), lib.rand(3).numpy()


@BOTH
def test_dropout_draws_the_same_mask_when_recomputed_and_the_callers_random_state_stays(torch, use_reentrant):
    for lib in libs(torch):
        plain, next_plain = dropout_grads(lib, use_reentrant, checkpointed=False)
        kept, next_kept = dropout_grads(lib, use_reentrant, checkpointed=True)
        assert_all_close(kept, plain)
        np.testing.assert_array_equal(next_kept, next_plain)   # backward did not move the random state


@BOTH
def test_without_preserve_rng_state_the_recomputation_draws_a_new_mask(torch, use_reentrant):
    for lib in libs(torch):
        plain, next_plain = dropout_grads(lib, use_reentrant, checkpointed=False)
        other, next_other = dropout_grads(lib, use_reentrant, checkpointed=True, preserve=False)
        assert not np.allclose(other[0], plain[0])
        assert not np.array_equal(next_other, next_plain)      # the recomputation drew from the stream


# -- warnings and errors ----------------------------------------------------------------------------
def test_leaving_out_use_reentrant_warns_and_means_true_as_in_pytorch_2_13(torch):
    messages = {}
    for lib in libs(torch):
        x = lib.tensor(X, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = ckpt(lib).checkpoint(lambda t: t.exp(), x)
            ckpt(lib).checkpoint_sequential([lib.nn.Tanh(), lib.nn.Tanh()], 2, x)
        assert [w.category for w in caught] == [UserWarning, UserWarning]
        messages[lib.__name__] = [str(w.message) for w in caught]
        assert y.grad_fn.name() == "CheckpointFunctionBackward"   # the reentrant variant
        if lib is tensorlab:
            assert {w.filename for w in caught} == {__file__}     # points at the caller's line
    assert messages["tensorlab"] == messages["torch"]
    assert "use_reentrant parameter should be passed explicitly" in messages["torch"][0]


def raised(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 -- the test compares whatever was raised
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("case", ["reentrant_kwargs", "sequential_kwargs", "context_fn", "debug",
                                  "determinism_check"])
def test_bad_arguments_raise_valueerror_with_pytorchs_phrase(torch, case):
    verdicts = {}
    for lib in libs(torch):
        cp, x = ckpt(lib), lib.tensor(X, requires_grad=True)
        call = {
            "reentrant_kwargs": lambda: cp.checkpoint(lambda t, scale=1: t * scale, x, scale=2, use_reentrant=True),
            "sequential_kwargs": lambda: cp.checkpoint_sequential([lib.nn.Tanh()], 1, x, use_reentrant=False,
                                                                  colour=1),
            "context_fn": lambda: cp.checkpoint(lambda t: t.exp(), x, use_reentrant=True,
                                                context_fn=lambda: (None, None)),
            "debug": lambda: cp.checkpoint(lambda t: t.exp(), x, use_reentrant=True, debug=True),
            "determinism_check": lambda: cp.checkpoint(lambda t: t.exp(), x, use_reentrant=False,
                                                       determinism_check="values"),
        }[case]
        verdicts[lib.__name__] = raised(call)
    assert verdicts["tensorlab"] == verdicts["torch"]
    assert verdicts["torch"][0] == "ValueError"


def changing(lib, state):
    """Saves one tensor more in the recomputation than in the forward (state flips in between)."""
    def f(t):
        h = t.exp()
        if state["extra"]:
            h = h.sin()
        return h * 2
    return f


@pytest.mark.parametrize("early_stop", [True, False])
def test_a_recomputation_that_saves_a_different_number_of_tensors_raises_checkpointerror(torch, early_stop):
    verdicts = {}
    for lib in libs(torch):
        cp, x = ckpt(lib), lib.tensor(X, requires_grad=True)
        assert issubclass(cp.CheckpointError, RuntimeError)
        for extra_first in (False, True):
            state = {"extra": extra_first}
            y = cp.checkpoint(changing(lib, state), x, use_reentrant=False, early_stop=early_stop)
            state["extra"] = not extra_first
            error = raised(lambda: y.sum().backward())
            verdicts[lib.__name__, extra_first] = error and (error[0], error[1].splitlines()[:3])
    for extra_first in (False, True):
        assert verdicts["tensorlab", extra_first] == verdicts["torch", extra_first]
    # fewer saved tensors in the recomputation always fail; more fail unless early_stop ends it in time
    assert verdicts["torch", True][0] == "CheckpointError"
    assert (verdicts["torch", False] is None) == early_stop


def test_a_recomputation_that_saves_a_tensor_of_another_shape_raises_checkpointerror(torch):
    messages = {}
    for lib in libs(torch):
        state = {"n": 4}
        x = lib.tensor(X, requires_grad=True)
        y = ckpt(lib).checkpoint(lambda t: t[: state["n"]].exp().sum(), x, use_reentrant=False)
        state["n"] = 3
        kind, message = raised(lambda: y.backward())
        assert kind == "CheckpointError"
        messages[lib.__name__] = message.splitlines()[:4]
    assert messages["tensorlab"][0] == messages["torch"][0]
    assert "tensor at position 0:" in messages["tensorlab"]
    y = ckpt(tensorlab).checkpoint(lambda t: t.exp().sum(), tensorlab.tensor(X, requires_grad=True),
                                   use_reentrant=False, determinism_check="none")
    y.backward()   # "none" turns the check off (and here nothing differs anyway)


def test_reentrant_checkpoint_refuses_autograd_grad_and_backward_inputs_as_pytorch(torch):
    verdicts = {}
    for lib in libs(torch):
        x = lib.tensor(X, requires_grad=True)
        for how in ("grad", "inputs"):
            y = ckpt(lib).checkpoint(lambda t: t.exp(), x, use_reentrant=True)
            call = (lambda: lib.autograd.grad(y.sum(), x)) if how == "grad" else \
                (lambda: y.sum().backward(inputs=[x]))
            verdicts[lib.__name__, how] = raised(call)
        assert x.grad is None
        y = ckpt(lib).checkpoint(lambda t: t.exp(), x, use_reentrant=False)   # the other variant can
        (g,) = lib.autograd.grad(y.sum(), x)
        np.testing.assert_allclose(g.numpy(), np.exp(X))
    for how in ("grad", "inputs"):
        assert verdicts["tensorlab", how] == verdicts["torch", how]
        assert "incompatible with .grad()" in verdicts["torch", how][1]


def test_unpacking_a_saved_tensor_twice_in_one_backward_raises_checkpointerror(torch):
    verdicts = {}
    for lib in libs(torch):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                ctx.save_for_backward(t)
                return t * 3

            @staticmethod
            def backward(ctx, g):
                ctx.saved_tensors
                (t,) = ctx.saved_tensors
                return g * 3

        y = ckpt(lib).checkpoint(lambda t: Twice.apply(t.exp()), lib.tensor(X, requires_grad=True),
                                 use_reentrant=False)
        verdicts[lib.__name__] = raised(lambda: y.sum().backward())
    assert verdicts["tensorlab"] == verdicts["torch"]
    assert verdicts["torch"][0] == "CheckpointError"


def test_an_input_modified_in_place_after_the_checkpoint_makes_backward_raise(torch):
    verdicts = {}
    for lib in libs(torch):
        x = lib.tensor(X, requires_grad=True)
        h = x * 1
        y = ckpt(lib).checkpoint(lambda t: t.exp(), h, use_reentrant=False)
        h.add_(1)
        kind, message = raised(lambda: y.sum().backward())
        verdicts[lib.__name__] = kind, "modified by an inplace operation" in message
    assert verdicts["tensorlab"] == verdicts["torch"] == ("RuntimeError", True)


# -- retain_graph, double backward, no_grad ---------------------------------------------------------
@BOTH
def test_retain_graph_recomputes_for_each_backward_and_a_second_backward_without_it_raises(torch, use_reentrant):
    results = {}
    for lib in libs(torch):
        calls = []
        x = lib.tensor(X, requires_grad=True)
        y = ckpt(lib).checkpoint(lambda t: (calls.append(1), t.exp().sin())[1], x, use_reentrant=use_reentrant)
        loss = y.sum()
        loss.backward(retain_graph=True)
        loss.backward()
        error = raised(lambda: loss.backward())
        results[lib.__name__] = [len(calls), x.grad.numpy().round(10).tolist(), error[0],
                                 "backward through the graph a second time" in error[1]]
    assert results["tensorlab"] == results["torch"]
    assert results["torch"][0] == 3   # the forward, then once per backward


@BOTH
def test_double_backward_through_a_checkpoint_is_pytorchs(torch, use_reentrant):
    results = {}
    for lib in libs(torch):
        x = lib.tensor(X, requires_grad=True)
        y = ckpt(lib).checkpoint(lambda t: t.sin().exp(), x, use_reentrant=use_reentrant)
        y.sum().backward(create_graph=True)
        first = x.grad
        row = [first.requires_grad, first.detach().numpy().round(10).tolist()]
        if first.requires_grad:
            (gg,) = lib.autograd.grad(first.sum(), x)
            row.append(gg.numpy().round(10).tolist())
        results[lib.__name__] = row
    assert results["tensorlab"] == results["torch"]


@BOTH
def test_under_no_grad_the_function_just_runs(torch, use_reentrant):
    for lib in libs(torch):
        x = lib.tensor(X, requires_grad=True)
        with lib.no_grad():
            y = ckpt(lib).checkpoint(lambda t: t.exp(), x, use_reentrant=use_reentrant)
        assert not y.requires_grad and y.grad_fn is None


def test_early_stop_ends_the_recomputation_after_the_last_saved_tensor(torch):
    counts = {}
    for lib in libs(torch):
        for early_stop in (True, False):
            log = []

            def f(t):
                log.append("exp")
                h = t.exp()                 # saves its result: the last tensor saved
                log.append("sum")
                return h.sum() * 1.0

            y = ckpt(lib).checkpoint(f, lib.tensor(X, requires_grad=True), use_reentrant=False,
                                     early_stop=early_stop)
            y.backward()
            counts[lib.__name__, early_stop] = log
        with ckpt(lib).set_checkpoint_early_stop(False):
            log = []
            y = ckpt(lib).checkpoint(f, lib.tensor(X, requires_grad=True), use_reentrant=False)
        y.backward()
        counts[lib.__name__, "overridden"] = log
    assert counts["tensorlab", True] == counts["torch", True] == ["exp", "sum", "exp"]
    assert counts["tensorlab", False] == counts["torch", False] == ["exp", "sum", "exp", "sum"]
    assert counts["tensorlab", "overridden"] == counts["torch", "overridden"]


def test_a_checkpointed_mlp_keeps_only_its_input_through_outer_hooks(torch):
    """Every Linear/Tanh saves tensors, but inside a checkpoint its own hooks (innermost) turn them into
    placeholders; what outer hooks see is the one input the checkpoint keeps to run the MLP again."""
    kept = {}
    for lib in libs(torch):
        model, x = mlp(lib), lib.tensor(X, requires_grad=True)
        packed = []
        with lib.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
            ckpt(lib).checkpoint(model, x, use_reentrant=False)
        kept[lib.__name__] = len(packed)
    assert kept["tensorlab"] == kept["torch"] == 1


# -- checkpoint_sequential --------------------------------------------------------------------------
@BOTH
@pytest.mark.parametrize("segments", [1, 2, 3, 8])
def test_checkpoint_sequential_gradients_equal_pytorchs(torch, use_reentrant, segments):
    results = {}
    for lib in libs(torch):
        model, x = mlp(lib), lib.tensor(X, requires_grad=True)
        functions = model if segments != 3 else list(model)   # a Sequential or a list of modules
        y = ckpt(lib).checkpoint_sequential(functions, segments, x, use_reentrant=use_reentrant)
        y.pow(2).sum().backward()
        results[lib.__name__] = [y.detach().numpy()] + grads(model, x)
        model2, x2 = mlp(lib), lib.tensor(X, requires_grad=True)
        model2(x2).pow(2).sum().backward()
        assert_all_close(results[lib.__name__][1:], grads(model2, x2))
    assert_all_close(results["tensorlab"], results["torch"])


def test_import_tensorlab_does_not_load_checkpoint_until_asked():
    code = ("import sys, tensorlab; assert 'tensorlab.utils.checkpoint' not in sys.modules; "
            "cp = tensorlab.utils.checkpoint; assert cp.checkpoint.__module__ == 'tensorlab.utils.checkpoint'")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("early_stop", [True, False])
def test_recomputed_activations_are_freed_without_the_garbage_collector(early_stop):
    """The recomputation stops by raising out of a pack hook; what the interrupted op was about to save
    (its output, whose grad_fn is the op's node) must not stay behind in a reference cycle."""
    import gc
    model, x = mlp(tensorlab), tensorlab.tensor(X, requires_grad=True)
    gc.collect()
    gc.disable()
    try:
        with ckpt(tensorlab).set_checkpoint_early_stop(early_stop):
            y = ckpt(tensorlab).checkpoint_sequential(model, 4, x, use_reentrant=False)
        y.sum().backward()
        del y
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kinds = (tensorlab.Tensor, tensorlab.autograd.graph.Node)
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, kinds)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


def test_the_memory_benchmarks_correctness_guard_holds(torch):
    from benchmarks import bench_checkpoint
    for lib in libs(torch):
        assert bench_checkpoint.check_gradients(lib, layers=5, width=16, batch=8) < 1e-4
    assert bench_checkpoint.count_linear_forwards(tensorlab, None, layers=6) == 6
    assert bench_checkpoint.count_linear_forwards(tensorlab, 6, layers=6) == 11   # all but the last again
    assert bench_checkpoint.count_linear_forwards(torch, 6, layers=6) == 11
