"""Stateless neural-network ops under torch.nn.functional's names and argument orders. Each is a
thin front over a Tensor method (the C++ composition in src/tensor/), so the graph and the error
messages are the same from C++ and Python."""
