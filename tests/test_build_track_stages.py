"""The build track's later stages (3: ops as Functions, 4: the graph, 5: the engine, 6: Module, 7: optimizers): the mistaken versions that
tests/test_build_track.py writes into tensorlab's own code to check that each classic mistake is
caught and named, and the checks particular to these stages (a method stands in its class only
while it is put there; a case tests one function with the rest of its stage tensorlab's)."""
import pytest

from coursekit.build import cases, place, skeleton

MISTAKEN_LATER = {
    "gradient not summed back to the input's shape": """
        def mul_backward(ctx, grad):
            a, b = saved_or_scalar(ctx)
            ga = grad * b if ctx.needs_input_grad[0] else None
            gb = grad * a if ctx.needs_input_grad[1] else None
            return ga, gb
        """,
    "the sign of a / b's gradient for b": """
        def div_backward(ctx, grad):
            a, b = saved_or_scalar(ctx)
            ga = unbroadcast(grad / b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
            gb = unbroadcast(grad * a / (b * b), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
            return ga, gb
        """,
    "mean without the divide": """
        def mean_backward(ctx, grad):
            if ctx._forward_cls is Mean:
                return grad.expand(ctx.in_shape), None, None, None
            return expand_back(grad, ctx.in_shape, ctx.dims, ctx.keepdim), None, None, None
        """,
    "one gradient instead of one per argument": """
        def sum_backward(ctx, grad):
            if ctx._forward_cls is Sum:
                return grad.expand(ctx.in_shape)
            return expand_back(grad, ctx.in_shape, ctx.dims, ctx.keepdim)
        """,
    "the reduced dim not put back": """
        def expand_back(grad, in_shape, dims, keepdim):
            return grad.expand(in_shape)
        """,
    "exp of the saved output": """
        def exp_backward(ctx, grad):
            return grad * _saved(ctx).exp()
        """,
    "wrong transpose in A's gradient": """
        def mat1_grad(grad, mat2, mat1_shape, mat1_stride):
            return grad.mm(mat2)
        """,
    "wrong transpose in B's gradient": """
        def mat2_grad(grad, mat1, mat2_shape, mat2_stride):
            return mat1.mm(grad)
        """,
    "an edge to an input that needs no gradient": """
        def _connect_inputs(node, args):
            positions, edges, input_meta = [], [], []
            for i, a in enumerate(args):
                if isinstance(a, _t.Tensor):
                    edges.append((a.grad_fn, a.output_nr) if a.grad_fn is not None else (grad_accumulator(a), 0))
                    input_meta.append((a._shape, a._array.dtype, a._storage.device))
                elif i in node._forward_cls.scalar_edges and a is not None:
                    edges.append(_NO_EDGE)
                    input_meta.append(None)
                else:
                    continue
                positions.append(i)
            node._seq_nr, node._recorded, node._n_args = next(_sequence), True, len(args)
            node.next_functions, node._tensor_positions = tuple(edges), tuple(positions)
            node._input_meta = tuple(input_meta)
        """,
    "every edge's input_nr 0": """
        def _connect_inputs(node, args):
            positions, edges, input_meta = [], [], []
            for i, a in enumerate(args):
                if isinstance(a, _t.Tensor):
                    edge = gradient_edge(a) if a.requires_grad else _NO_EDGE
                    edges.append((edge[0], 0))
                    input_meta.append((a._shape, a._array.dtype, a._storage.device))
                elif i in node._forward_cls.scalar_edges and a is not None:
                    edges.append(_NO_EDGE)
                    input_meta.append(None)
                else:
                    continue
                positions.append(i)
            node._seq_nr, node._recorded, node._n_args = next(_sequence), True, len(args)
            node.next_functions, node._tensor_positions = tuple(edges), tuple(positions)
            node._input_meta = tuple(input_meta)
        """,
    "an AccumulateGrad for a leaf that needs no gradient": """
        def gradient_edge(t):
            if t._grad_fn is not None:
                return (t._grad_fn, t._output_nr)
            return (grad_accumulator(t), 0)
        """,
    "a new AccumulateGrad for every use of a leaf": """
        def grad_accumulator(t):
            return AccumulateGrad(t)
        """,
    "a node queued before all its gradients arrived": """
        def backward_deliver(self, node, outputs):
            for edge, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                grad = outputs[edge] if edge < len(outputs) else None
                if grad is not None:
                    buf = self.buffers.get(nxt)
                    if buf is None:
                        buf = self.buffers[nxt] = [None] * max(len(nxt._output_meta), 1)
                    buf[nr] = grad if buf[nr] is None else _add_gradients(buf[nr], grad)
                    self.push(nxt)
        """,
    "incoming gradients not added up": """
        def backward_deliver(self, node, outputs):
            for edge, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                grad = outputs[edge] if edge < len(outputs) else None
                if grad is not None:
                    buf = self.buffers.get(nxt)
                    if buf is None:
                        buf = self.buffers[nxt] = [None] * max(len(nxt._output_meta), 1)
                    buf[nr] = grad
                self.dependencies[nxt] -= 1
                if self.dependencies[nxt] == 0:
                    self.push(nxt)
        """,
    "edges counted once per node": """
        def _count_dependencies(root):
            dependencies, seen, nodes, stack = {}, {root}, [], [root]
            while stack:
                node = stack.pop()
                nodes.append(node)
                for nxt, _ in node.next_functions:
                    if nxt is not None and nxt not in seen:
                        dependencies[nxt] = 1
                        seen.add(nxt)
                        stack.append(nxt)
            return dependencies, nodes
        """,
    "saved tensors kept without retain_graph": """
        def backward_process(self, node):
            grads = self.buffers.pop(node, None) or [None] * max(len(node._output_meta), 1)
            if hooks.has_tensor_hooks(node):
                grads = hooks.run_tensor_hooks(node, grads, _emit if self.observed else None)
            if node in self.targets:
                _capture(node, grads, self.targets[node], self.captured, self.observed)
            if self.visit is not None and not self.visit[node]:
                return ()
            return _evaluate(node, grads, self.observed)
        """,
    "a Parameter not registered by assignment": """
        def module_setattr(self, name, value):
            object.__setattr__(self, name, value)
        """,
    "the dot missing between prefix and name": """
        def module_named_members(self, registry, prefix, recurse, remove_duplicate=True):
            seen = set()
            owners = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
            for owner_prefix, owner in owners:
                for name, value in getattr(owner, registry).items():
                    if value is None or (remove_duplicate and id(value) in seen):
                        continue
                    seen.add(id(value))
                    yield owner_prefix + name, value
        """,
    "the submodule's name missing": """
        def module_named_members(self, registry, prefix, recurse, remove_duplicate=True):
            seen = set()
            owners = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
            for owner_prefix, owner in owners:
                for name, value in getattr(owner, registry).items():
                    if value is None or (remove_duplicate and id(value) in seen):
                        continue
                    seen.add(id(value))
                    yield name, value
        """,
    "a shared parameter listed twice": """
        def module_named_members(self, registry, prefix, recurse, remove_duplicate=True):
            owners = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
            for owner_prefix, owner in owners:
                for name, value in getattr(owner, registry).items():
                    if value is not None:
                        yield owner_prefix + ("." if owner_prefix else "") + name, value
        """,
    "train() not recursing into children": """
        def module_train(self, mode=True):
            if not isinstance(mode, bool):
                raise ValueError("training mode is expected to be boolean")
            self.training = mode
            return self
        """,
    "non-persistent buffers saved": """
        def state_dict_mixin_local_state(self):
            for name, param in self._parameters.items():
                if param is not None:
                    yield name, param
            for name, buf in self._buffers.items():
                if buf is not None:
                    yield name, buf
        """,
    "Adam's bias correction off by one step": """
        def adam_update(self, p, group):
            state = self._state_for(p, group)
            beta1, beta2 = group["betas"]
            lr, weight_decay = group["lr"], group["weight_decay"]
            grad = -p.grad if group["maximize"] else p.grad
            state["step"].add_(1)
            step = state["step"].item() + 1
            if weight_decay != 0:
                grad = grad.add(p, alpha=weight_decay)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            denom = (exp_avg_sq.sqrt() / (1 - beta2 ** step) ** 0.5).add_(group["eps"])
            p.addcdiv_(exp_avg, denom, value=-lr / (1 - beta1 ** step))
        """,
    "momentum buffer started at zero": """
        def sgd_update(self, p, group):
            grad = -p.grad if group["maximize"] else p.grad
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            momentum = group["momentum"]
            if momentum != 0:
                state = self.state[p]
                if state.get("momentum_buffer") is None:
                    state["momentum_buffer"] = grad.detach().clone().zero_()
                buf = state["momentum_buffer"]
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
                grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
            p.add_(grad, alpha=-group["lr"])
        """,
    "weight decay added after momentum": """
        def sgd_update(self, p, group):
            grad = -p.grad if group["maximize"] else p.grad
            momentum = group["momentum"]
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = grad.detach().clone()
                else:
                    buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
                grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            p.add_(grad, alpha=-group["lr"])
        """,
    "parameter not updated in place": """
        def sgd_update(self, p, group):
            grad = -p.grad if group["maximize"] else p.grad
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            p = p - group["lr"] * grad
        """,
}


def test_methods_are_named_after_their_class_in_the_learners_file():
    names = {r.qualname: r.name for r in skeleton.regions(3)}
    assert names["Mul.backward"] == "mul_backward" and names["expand_back"] == "expand_back"
    assert skeleton.learner_name("AccumulateGrad.apply") == "accumulate_grad_apply"
    source = skeleton.stage_source(3)
    assert "def mul_backward(ctx, grad):" in source and "def backward(" not in source


def test_a_case_puts_one_function_in_place_and_then_takes_it_out():
    import tensorlab
    from tensorlab.ops.elementwise import Mul
    found = skeleton.regions(3)
    own = Mul.backward

    def doubled(ctx, grad):
        return tuple(None if g is None else 2 * g for g in own(ctx, grad))
    with place.only(found, "mul_backward", doubled):
        x = tensorlab.ones(2, requires_grad=True)
        (x * 3).sum().backward()
        assert x.grad.tolist() == [6.0, 6.0]
    assert Mul.backward is own and isinstance(Mul.__dict__["backward"], staticmethod)
    x = tensorlab.ones(2, requires_grad=True)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_the_matrix_gradient_cases_check_the_layout_too():
    """A column-major A gets a column-major gradient from PyTorch's mm backward: the case compares strides."""
    which = next(c for c in cases.CASES[3] if c.function == "mat1_grad" and c.args[1])
    assert cases.CASES and which.expected(None)["value"]["stride"] == [1, 2]


@pytest.mark.parametrize("stage", [3, 4, 5, 7])
def test_every_case_of_the_stage_has_an_answer_not_an_error(stage):
    """The cases are about formulas, graphs, backward passes and optimizer steps: PyTorch answers each
    with values (one of stage 5's with its error: a second backward through a freed graph)."""
    for case in cases.CASES[stage]:
        assert "value" in case.expected(None) or "a second time" in case.expected(None)["message"], case.id


def test_modules_cases_build_their_networks_with_the_learners_setattr_in_place():
    """A stage 6 case builds its network inside the block where the learner's function stands, and
    Module.__setattr__ is tensorlab's own again afterwards."""
    from tensorlab.nn import Module
    own = Module.__dict__["__setattr__"]
    calls = []

    def counting(self, name, value):
        calls.append(name)
        own(self, name, value)
    which = next(c for c in cases.CASES[6] if c.function == "module_setattr")
    assert cases.agrees(which.run(counting), which.expected(None))
    assert {"fc", "w", "scale"} <= set(calls) and Module.__dict__["__setattr__"] is own


def test_a_module_case_that_raises_pytorchs_error_is_graded_on_the_message():
    which = next(c for c in cases.CASES[6] if c.args[0].endswith("net.w = zeros(2)"))
    assert which.expected(None)["error"] == "TypeError"
    assert "(torch.nn.Parameter or None expected)" in which.expected(None)["message"]


def test_optimizer_cases_see_every_option_change_the_trajectory():
    """Each SGD and Adam case's options lead somewhere else than plain lr alone: the cases test them."""
    from coursekit.build.cases_optim import SETTINGS
    for name in ("SGD", "Adam"):
        ends = [c.expected(None)["value"]["p after step 3"] for c in cases.CASES[7] if c.args[0].startswith(name)]
        assert len(ends) == len([s for s in SETTINGS if s[1] == name]) and len(set(map(tuple, ends))) == len(ends)


def test_a_mistaken_adam_that_divides_by_zero_is_named_too():
    """Bias correction with t = 0 raises ZeroDivisionError on the first step: the same hint names it."""
    from coursekit.build import hints
    mistake = next(m for m in hints.MISTAKES[7] if m.name.startswith("Adam's bias correction"))
    assert mistake.wrong({"error": "ZeroDivisionError", "message": "float division by zero"})
