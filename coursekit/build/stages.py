"""The stages of the build track: what the learner writes, and which of the project's tests grade it.

A stage names the tensorlab modules whose marked regions it takes (see :mod:`coursekit.build.skeleton`),
the learner's file, and the tests that guard that part of tensorlab -- the project's own tests in
tests/, the same ones that keep tensorlab faithful to PyTorch. Grading runs the stage's cases
(:mod:`coursekit.build.cases`) and the examples in the docstrings of its functions first, so that the first failure a learner sees is a small input with
PyTorch's answer beside theirs, then those project tests with the learner's functions in place.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    number: int
    slug: str            # the learner's file is <slug>.py
    title: str
    notebook: str        # in course/build/
    sources: tuple       # tensorlab modules with the stage's marked regions
    tests: tuple         # pytest node ids, relative to the repository root
    task: str            # one paragraph: what the learner builds
    minutes: int         # a first-time estimate

    @property
    def filename(self):
        return f"{self.slug}.py"


_LAYOUT = "tests/test_layout.py::"
_VIEWS = "tests/test_views.py::"
_GRAD = "tests/test_elementwise_grad.py::"
_REDUCE = "tests/test_reduce.py::"
_LINALG = "tests/test_linalg.py::"
_GRAPH = "tests/test_autograd_graph.py::"
_BACKWARD = "tests/test_autograd_backward.py::"
_HOOKS = "tests/test_autograd_hooks.py::"
_MODULE = "tests/test_nn_module.py::"
_OPTIM = "tests/test_optim.py::"
_LAYERS = "tests/test_nn_layers.py::"
_FUNCTIONAL = "tests/test_nn_functional.py::"
_CAPSTONE = "coursekit/build/capstone_tests.py::"

STAGES = {
    1: Stage(
        1, "strides", "strides and views", "01_build_strides_and_views.ipynb", ("tensorlab._layout",),
        (_LAYOUT + "test_contiguous_strides_and_zero_sizes",
         _LAYOUT + "test_view_strides_edge_cases",
         _LAYOUT + "test_view_strides_succeeds_exactly_when_torch_view_does",
         _LAYOUT + "test_memory_position_reads_the_element_numpy_reads",
         _LAYOUT + "test_contiguity_and_density_match_torch",
         _VIEWS + "test_view_shares_storage_and_writes_through",
         _VIEWS + "test_reshape_copies_exactly_when_view_fails",
         _VIEWS + "test_contiguous_returns_self_when_already_contiguous",
         _VIEWS + "test_as_strided_overlapping_windows_grad_matches_torch",
         _VIEWS + "test_layout_of_random_views_matches_torch"),
        "A tensor is a window onto flat storage: (offset, shape, strides). Write the arithmetic "
        "every tensor of tensorlab then runs on: row-major strides, contiguity, where an element "
        "lives, how much storage a layout needs (what as_strided checks), and PyTorch's rule for "
        "when view() can reuse memory.", 60),
    2: Stage(
        2, "broadcasting", "broadcasting and summing a gradient back", "02_build_broadcasting.ipynb",
        ("tensorlab._layout", "tensorlab.ops._util"),
        (_LAYOUT + "test_broadcast_and_expand_messages_match_torch",
         "tests/test_broadcasting_functions.py::test_broadcast_to_is_expand",
         "tests/test_autograd_function.py::test_broadcastable_gradient_is_summed_to_the_input_shape",
         "tests/test_inplace_safety.py::test_writes_into_expanded_tensors_match_torch",
         _VIEWS + "test_expand_uses_stride_zero_and_shares_memory",
         "tests/test_broadcasting_functions.py::test_broadcast_tensors_are_views_with_pytorchs_strides_and_grads",
         "tests/test_elementwise_grad.py::test_binary_gradcheck[add]",
         "tests/test_elementwise_grad.py::test_binary_gradcheck[mul]",
         "tests/test_elementwise_grad.py::test_binary_gradcheck[div]",
         "tests/test_elementwise_grad.py::test_gradgradcheck[mul]"),
        "Broadcasting lets a (3, 1) tensor meet a (4,) one. Write the rule for the result shape, "
        "expand() as a view with stride 0, and its backward: the gradient of a broadcast input is "
        "summed back to the input's shape. tensorlab's arithmetic ops all call your functions.", 45),
    3: Stage(
        3, "ops", "ops as Functions: forward and backward formulas", "03_build_ops_as_functions.ipynb",
        ("tensorlab.ops.elementwise", "tensorlab.ops.unary", "tensorlab.ops.reduce", "tensorlab.ops.linalg"),
        (_GRAD + "test_binary_gradcheck[mul]",
         _GRAD + "test_binary_gradcheck[div]",
         _GRAD + "test_unary_gradcheck[exp]",
         _GRAD + "test_unary_gradcheck[div_scalar]",
         _GRAD + "test_gradgradcheck[mul]",
         _GRAD + "test_gradgradcheck[div]",
         _GRAD + "test_gradgradcheck[exp_log]",
         _REDUCE + "test_reduction_gradcheck[sum]",
         _REDUCE + "test_reduction_gradcheck[sum_all]",
         _REDUCE + "test_reduction_gradcheck[mean]",
         _REDUCE + "test_reduction_gradgradcheck[mean]",
         _REDUCE + "test_multi_dim_reductions_match_torch[sum-(0, 2)-False]",
         _REDUCE + "test_multi_dim_reductions_match_torch[mean-1-True]",
         _LINALG + "test_product_gradcheck[mm]",
         _LINALG + "test_product_gradcheck[bmm]",
         _LINALG + "test_product_gradcheck[matmul((2, 1, 2, 3), (5, 3, 4))]",
         _LINALG + "test_product_gradcheck[matmul((5, 3), (2, 3, 4))]",
         _LINALG + "test_product_gradgradcheck[mm]",
         _LINALG + "test_matmul_matches_torch[True-((2, 2, 3), (2, 3, 4))]",
         _LINALG + "test_matmul_matches_torch[True-((2, 1, 2, 3), (5, 3, 4))]"),
        "Every op of tensorlab is an autograd.Function: a forward that computes on the arrays and "
        "saves what backward needs, and a backward that turns the gradient of the output into the "
        "gradients of the inputs (the chain rule). Write them for *, / and exp, sum and mean, and the "
        "matrix products: gradcheck then compares your formulas with finite differences.", 75),
    4: Stage(
        4, "graph", "the graph: nodes, edges and AccumulateGrad", "04_build_the_graph.ipynb",
        ("tensorlab.autograd.graph", "tensorlab.autograd.function"),
        (_GRAPH + "test_grad_fn_name_matches_torch",
         _GRAPH + "test_next_functions_structure_matches_torch",
         _GRAPH + "test_leaves_and_requires_grad_propagation",
         _GRAPH + "test_requires_grad_of_a_non_leaf_cannot_be_switched_off",
         _GRAPH + "test_node_repr_and_name",
         _GRAPH + "test_scalar_operands_give_none_edges",
         _GRAPH + "test_accumulate_grad_is_shared_and_points_at_the_leaf",
         _GRAPH + "test_accumulate_grad_lives_only_while_a_graph_uses_it",
         _GRAPH + "test_builtin_nodes_and_custom_function_nodes_share_the_machinery"),
        "Each recorded op becomes a node of the backward graph: its edges, next_functions, say where "
        "each input's gradient goes -- the node that made the input and which of its outputs it was, "
        "the leaf's one AccumulateGrad, or nowhere. Write the edges, the leaf's accumulator and the "
        "nodes' names: tensorlab then records every graph with your code.", 45),
    5: Stage(
        5, "engine", "the engine: dependencies, the ready queue, accumulation, freeing", "05_build_the_engine.ipynb",
        ("tensorlab.autograd.engine",),
        (_BACKWARD + "test_backward_values_match_torch",
         _BACKWARD + "test_gradients_accumulate_across_calls",
         _BACKWARD + "test_leaves_fed_the_same_gradient_tensor_get_their_own_grad",
         _BACKWARD + "test_autograd_backward_with_several_roots",
         _BACKWARD + "test_grad_returns_gradients_and_leaves_dot_grad_alone",
         _BACKWARD + "test_grad_unused_inputs",
         _BACKWARD + "test_backward_inputs_restricts_accumulation",
         _BACKWARD + "test_second_backward_without_retain_graph_raises",
         _BACKWARD + "test_saved_tensors_are_released_right_after_their_node_runs",
         _BACKWARD + "test_execution_order_matches_torch",
         _BACKWARD + "test_dependency_counting_waits_for_every_branch",
         _BACKWARD + "test_random_graphs_match_torch_in_gradients_and_order",
         _HOOKS + "test_hook_on_a_non_leaf_sees_and_replaces_the_gradient",
         _HOOKS + "test_hook_on_a_leaf_runs_before_accumulation",
         _HOOKS + "test_several_hooks_run_in_registration_order_and_retain_grad_sees_the_result",
         _HOOKS + "test_hooks_fire_during_autograd_grad_too"),
        "backward() runs the graph once, newest node first: count the edges into every node, queue a "
        "node only when all its gradients have arrived (adding up those for the same place), run it, "
        "free what it saved unless retain_graph, and send its results on. Write the walk, the queue "
        "and the delivery: every backward of tensorlab then runs on your engine, in PyTorch's order.", 60),
    6: Stage(
        6, "module", "Module: registration, named parameters, state_dict, train/eval", "06_build_modules.ipynb",
        ("tensorlab.nn.modules.module", "tensorlab.nn.modules._module_state"),
        (_MODULE + "test_assignment_registers_parameters_buffers_and_modules",
         _MODULE + "test_reassignment_moves_between_registries",
         _MODULE + "test_registration_errors_match_torch",
         _MODULE + "test_shared_parameters_listed_once",
         _MODULE + "test_traversal_names_and_order_match_torch",
         _MODULE + "test_state_dict_keys_and_order_match_torch",
         _MODULE + "test_state_dict_values_share_memory",
         _MODULE + "test_load_state_dict_from_torch_reproduces_outputs",
         _MODULE + "test_train_eval_propagate",
         _MODULE + "test_zero_grad_and_requires_grad_"),
        "A Module is an object whose attributes sort themselves: assigning a Parameter registers it, "
        "assigning a layer makes it a child. Write that sorting (__setattr__), the walk that names "
        "every parameter \"fc.weight\" and lists a shared one once, what state_dict saves, and "
        "train()/eval(): every network of tensorlab then registers and walks itself with your code.", 60),
    7: Stage(
        7, "optim", "optimizers: SGD with momentum, Adam with bias correction", "07_build_optimizers.ipynb",
        ("tensorlab.optim.sgd", "tensorlab.optim.adam"),
        tuple(f"{_OPTIM}test_sgd_matches_torch[kwargs{i}]" for i in range(8))
        + tuple(f"{_OPTIM}test_optimizer_matches_torch[Adam-kwargs{i}]" for i in range(6))
        + (_OPTIM + "test_float64_params[SGD]",
           _OPTIM + "test_float64_params[Adam]",
           _OPTIM + "test_sgd_float64",
           _OPTIM + "test_step_skips_params_without_grad",
           _OPTIM + "test_state_dict_round_trip_mid_training[SGD-kwargs0]",
           _OPTIM + "test_state_dict_round_trip_mid_training[Adam-kwargs1]"),
        "An optimizer turns gradients into new parameter values, in place. Write one SGD step (weight "
        "decay, momentum with dampening, Nesterov) and one Adam step (running averages of the gradient "
        "and its square, with bias correction): tensorlab's SGD and Adam then follow PyTorch's "
        "trajectories step for step with your code.", 45),
    8: Stage(
        8, "conv", "convolution as unfold + matmul, and the capstone CNN", "08_build_capstone.ipynb",
        ("tensorlab.ops.nn_conv",),
        tuple(f"{_LAYERS}test_conv2d_matches_torch[kwargs{i}]" for i in range(9))
        + (_LAYERS + "test_conv1d_matches_torch[kwargs1]",
           _LAYERS + "test_conv3d_matches_torch",
           _LAYERS + "test_conv_transpose2d_matches_torch[kwargs1]",
           _LAYERS + "test_conv_transpose2d_matches_torch[kwargs2]",
           _LAYERS + "test_max_pool2d_matches_torch[kwargs1]",
           _LAYERS + "test_max_pool2d_matches_torch[kwargs3]",
           _FUNCTIONAL + "test_gradcheck[conv2d]",
           _FUNCTIONAL + "test_gradcheck[conv2d_stride_dilation]",
           _FUNCTIONAL + "test_gradcheck[conv2d_groups_noncontig]",
           _FUNCTIONAL + "test_gradcheck[conv_transpose2d]",
           _FUNCTIONAL + "test_gradcheck[unfold]",
           _FUNCTIONAL + "test_gradcheck[fold]",
           _FUNCTIONAL + "test_gradgradcheck[conv2d]",
           _FUNCTIONAL + "test_convolution_is_weight_times_unfold",
           "tests/test_nn_properties.py::test_conv2d_random_geometry",
           "tests/test_nn_properties.py::test_max_pool2d_random_geometry",
           _CAPSTONE + "test_every_stage_is_written",
           _CAPSTONE + "test_losses_equal_tensorlabs_own_run_step_by_step",
           _CAPSTONE + "test_losses_equal_pytorchs_recorded_run",
           _CAPSTONE + "test_test_accuracy_is_at_least_95_percent"),
        "A convolution slides a kernel over an image. Read every window at once as a strided view "
        "(no copy), lay the windows out as columns, and the whole convolution is one matrix product; "
        "its backward adds each window's gradient back onto the pixels it read -- overlapping windows "
        "add up. Write the view, the forward and the fold: tensorlab's Conv2d, pooling, unfold and fold "
        "then run on your code. Then the capstone: a small CNN learns the digits with every piece you "
        "built in stages 1-8 in place of tensorlab's, step for step the same as tensorlab and PyTorch.",
        75),
}


def stage_numbers(which):
    """``"1"`` -> [1]; ``"all"`` -> every stage. Raises ValueError for an unknown stage."""
    if str(which) == "all":
        return sorted(STAGES)
    try:
        number = int(which)
    except ValueError:
        number = None
    if number not in STAGES:
        raise ValueError(f"no stage {which!r}: the stages are {', '.join(map(str, sorted(STAGES)))} or all")
    return [number]
