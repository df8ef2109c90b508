"""onegrad.tir: TIR programs written as TVMScript, parsed, checked, printed and run on numpy arrays.

    mod = onegrad.tir.parse(text)         # TirSyntaxError (.line, .column) when it does not parse
    mod.check()                           # TirTypeError listing the typing and scoping issues;
                                          # TirSpecWarning where TVM accepts what the spec refuses
    onegrad.tir.parse(text, strict=True)  # ... where check() follows the spec to the letter
    f = mod["add"]                        # KeyError naming the functions there are
    f.interpret(a, b, c)                  # the reference interpreter, writes c in place
    f(a, b, c)                            # compiled code (docs/python.md "TIR")

Arrays are numpy arrays (through the buffer protocol) or objects with __dlpack__ (torch tensors),
used in place without a copy; scalars are Python ints and floats (or numpy scalars). A call returns
the value of T.ret / `return` (int, float or bool), or None. Arguments that do not fit the function
raise TirArgumentError naming the function, the parameter and both values.
"""

import warnings
from typing import Dict, Iterator

import numpy as np

from . import _C
from .errors import TirNotLowerable, TirSpecWarning

__all__ = ["parse", "Module", "PrimFunc", "TirNotLowerableWarning", "TirSpecWarning"]


class TirNotLowerableWarning(UserWarning):
    """A PrimFunc called as compiled code ran through the interpreter: it has a construct the
    compiler does not lower yet (the message names it and its line)."""


def parse(text: str, strict: bool = False) -> "Module":
    """Parses TVMScript (one @T.prim_func or an @I.ir_module class). Parsing only parses:
    Module.check() applies the typing and well-formedness rules, strictly when strict is True
    (Module.check's default)."""
    return Module(_C.tir.parse(text), strict)


def _arguments(args):
    # numpy scalars as the Python numbers they hold; everything else goes to C++ as it is.
    return tuple(a.item() if isinstance(a, np.generic) else a for a in args)


class PrimFunc:
    """One function of a Module."""

    def __init__(self, module: "Module", name: str):
        self.module = module
        self.name = name
        self._runner = _C.tir.Runner(module._handle, name)  # compiles on the first call, then holds it

    def script(self) -> str:
        """This function as TVMScript."""
        return self.module._handle.function_script(self.name)

    def interpret(self, *args):
        """Runs the reference interpreter on args; the returned value or None."""
        return _C.tir.call(self.module._handle, self.name, _arguments(args), False)

    def __call__(self, *args):
        """Runs compiled code on args (the interpreter's results, faster); the returned value or None.
        A function with a construct the compiler cannot lower yet (docs/tir.md "Compiling") runs
        through the interpreter instead, with a TirNotLowerableWarning naming the construct."""
        try:
            return self._runner.call(self.module._handle, self.name, _arguments(args))
        except TirNotLowerable as e:
            warnings.warn(TirNotLowerableWarning(f"{self.name}: {e}; running the interpreter"), stacklevel=2)
        return self.interpret(*args)

    @property
    def mode(self) -> str:
        """How a call runs: "compiled", or "interpreted" when the function has a construct the
        compiler does not lower yet (compiles it to find out; the compiled code is kept)."""
        try:
            self._runner.compile()
        except TirNotLowerable:
            return "interpreted"
        return "compiled"

    def source(self) -> str:
        """The C this function compiles to; TirNotLowerable naming the construct when it cannot."""
        return _C.tir.source(self.module._handle, self.name)

    def __repr__(self):
        return f"<onegrad.tir.PrimFunc {self.name}>"


class Module:
    """A parsed IRModule: its PrimFuncs by name, in source order."""

    def __init__(self, handle, strict: bool = False):
        self._handle = handle
        self.strict = strict
        self.functions: Dict[str, PrimFunc] = {n: PrimFunc(self, n) for n in handle.function_names()}

    def __getitem__(self, name: str) -> PrimFunc:
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"the module has no function {name!r}; it has: {', '.join(self.functions)}") from None

    def __contains__(self, name) -> bool:
        return name in self.functions

    def __iter__(self) -> Iterator[str]:
        return iter(self.functions)

    def __len__(self) -> int:
        return len(self.functions)

    def script(self) -> str:
        """The module as TVMScript (parse(m.script()) gives it back)."""
        return self._handle.script()

    def check(self, strict: bool = None) -> None:
        """Raises TirTypeError listing every typing and well-formedness issue; None when there are none.
        What TVM accepts and the spec refuses (docs/tir.md "Where the spec and TVM disagree") is a
        TirSpecWarning naming the line and the spec's rule, or with strict (default: the strict given
        to parse) one of the errors."""
        for w in self._handle.check(self.strict if strict is None else bool(strict)):
            warnings.warn(TirSpecWarning(w), stacklevel=2)

    def __repr__(self):
        return f"<onegrad.tir.Module {list(self.functions)}>"
