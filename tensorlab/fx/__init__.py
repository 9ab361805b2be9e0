"""tensorlab.fx: capture a Module's forward as a graph you can read, rewrite and run (PyTorch's torch.fx).

    gm = tensorlab.fx.symbolic_trace(model)    # trace: run forward once on Proxies
    print(gm.graph)                            # the recorded nodes
    print(gm.code)                             # the forward generated from them
    gm(x)                                      # computes what model(x) computes

One file per idea: node.py (a step), graph.py (the list of steps, rewriting), proxy.py (the traced value,
which meets tensorlab's functions through ``__torch_function__``), tracer.py (running forward on proxies),
graph_module.py (the Module that runs generated code), interpreter.py (running a graph node by node).
See course/26_graph_capture_fx.
"""
from .. import _torch_function

_torch_function.install()  # proxies reach tensorlab's functions through __torch_function__

from .graph import Graph  # noqa: E402
from .graph_module import GraphModule  # noqa: E402
from .interpreter import Interpreter, Transformer  # noqa: E402
from .node import Node, map_arg  # noqa: E402
from .proxy import Attribute, Proxy, TraceError  # noqa: E402
from .tracer import Tracer, symbolic_trace, wrap  # noqa: E402

__all__ = ["Graph", "GraphModule", "Interpreter", "Node", "Proxy", "Tracer", "Transformer", "symbolic_trace",
           "map_arg", "wrap", "Attribute", "TraceError"]
