"""The exceptions onegrad raises. The C++ library throws the classes of src/uop/errors.h; the
binding (python/src/errors.cpp) raises the class of the same name from here, with the C++ message.

Each class also derives from the builtin exception a Python user would reach for, so code that
catches ValueError around a bad reshape, or TypeError around a bad dtype, keeps working:

    Error          Exception      base of everything onegrad raises on purpose
    ShapeError     ValueError     shapes that do not fit (broadcast, reshape, permute, pad, axis)
    IndexShapeError IndexError    a ShapeError from indexing (t[5] on a length-3 axis)
    DTypeError     TypeError      an op not defined for a dtype, or an unknown dtype name
    DeviceError    RuntimeError   unknown device, tensors on different devices
    CompileError   RuntimeError   the backend compiler rejected a kernel
    VerifyError    RuntimeError   a graph broke a stage's rules (a bug in onegrad)
    RewriteError   RuntimeError   a rewrite did not settle (a bug in onegrad)
    InternalError  RuntimeError   a broken invariant (a bug in onegrad)
    ParseError     ValueError     text that does not parse (.line and .column)
    ArgumentError  ValueError     an argument value an op does not take (reduction='avg')
    FormatError    ValueError     a file whose contents break its format (safetensors, IDX, gzip)
    FileError      OSError        a file that cannot be opened/read/written, or a data set not installed
    UnsupportedError NotImplementedError  an ONNX op/attribute/opset onegrad does not run (docs/onnx.md)
    FunctionError  TypeError      a traced function used wrongly (implicit capture; docs/function.md)
    OptError       ValueError     a kernel opt that does not apply (docs/kernel_opts.md)
    TargetError    RuntimeError   a kernel holding a dtype or op its device lacks (float16 on an
                                  OpenCL device without cl_khr_fp16); names the device, dtype, node
    IndexError     IndexError     an index value out of range in gather, scatter, x[idx], a loss
                                  target, one_hot or embedding, raised when the result is realized

Error itself is not a RuntimeError: a shape mistake is a ValueError, not a runtime failure.
"""

import builtins


class Error(Exception):
    """Base of every exception onegrad raises on purpose."""


class ShapeError(Error, ValueError):
    """Shapes that do not fit together; the message names the op and the shapes."""


class IndexShapeError(ShapeError, builtins.IndexError):
    """A ShapeError raised by indexing, so `except IndexError` (and iteration) work as usual."""


class DTypeError(Error, TypeError):
    """An op not defined for a dtype, or a dtype that does not exist."""


class ValueRangeError(DTypeError, OverflowError):
    """A number that does not fit the dtype it must take (2**40 as int32, 1000 into int8): refused,
    never wrapped. Also an OverflowError, as Python's own int conversions raise."""


class DeviceError(Error, RuntimeError):
    """An unknown device, or tensors on different devices in one op."""


class CompileError(Error, RuntimeError):
    """The backend's compiler rejected a kernel; the message has its output."""


class VerifyError(Error, RuntimeError):
    """A graph broke the rules of a compiler stage."""


class RewriteError(Error, RuntimeError):
    """A graph rewrite that did not settle."""


class InternalError(Error, RuntimeError):
    """A broken internal invariant: a bug in onegrad."""


class ParseError(Error, ValueError):
    """Text that does not parse; .line and .column say where."""

    line = 0
    column = 0


# reductions/losses
class ArgumentError(Error, ValueError):
    """An argument value an op does not take (a bad reduction name, label_smoothing outside [0, 1])."""


# modules: src/nn/state_dict.h's StateDictError
class StateDictError(Error, RuntimeError):
    """load_state_dict found missing or unexpected keys, or shapes that differ; .missing_keys and
    .unexpected_keys list them (a RuntimeError, as torch raises)."""

    missing_keys = ()
    unexpected_keys = ()


# data
class FormatError(Error, ValueError):
    """A file whose contents break its format (a bad safetensors header, an IDX file cut short); the
    message names the file and the problem."""


class FileError(Error, OSError):
    """A file that cannot be opened, read or written, or a data set that is not installed; the
    message names the path and says what to do."""


# onnx: src/uop/errors.h's UnsupportedError
class UnsupportedError(Error, NotImplementedError):
    """Something a program asks for that onegrad cannot run yet (an ONNX op, attribute or opset it
    does not implement); the message names it and, for ONNX, the node and opset."""


# function
class FunctionError(Error, TypeError):
    """A traced function (@onegrad.function) used wrongly: it reads a tensor that is not one of its
    arguments, or realizes a value traced from them. The message names the function."""


# kernel opts: src/codegen/opt.h's OptError
class OptError(Error, ValueError):
    """A kernel opt that does not apply to a kernel (an axis out of range, a factor that does not
    divide the axis, a target the axis cannot be split into); the message names the opt, the kernel's
    shape and the rule."""


# devices: src/codegen/capabilities.h's TargetError
class TargetError(Error, RuntimeError):
    """A kernel its device cannot run: a dtype the device lacks (float16 without cl_khr_fp16, float64
    without cl_khr_fp64; onegrad.Device.has_dtype says which), or an op it lacks that has no
    decomposition. The message names the device, the dtype or op, and the node."""


# TIR: src/tir/ast/errors.h, src/tir/interpret/interpret_errors.h, src/tir_compile/not_lowerable.h
class TirSyntaxError(ParseError):
    """TVMScript text that does not parse; .line and .column point at the offending token."""


class TirTypeError(Error, TypeError):
    """A module that breaks TIR's typing or well-formedness rules (onegrad.tir.Module.check()); .issues
    lists every finding ("line 4, column 9: For: ..."), .line and .column are the first one's."""

    line = 0
    column = 0
    issues = ()


class TirRuntimeError(Error, RuntimeError):
    """A TIR program that failed while running; .line is the line of the construct that failed."""

    line = 0


class TirArgumentError(TirRuntimeError, ValueError):
    """Arguments that do not fit a PrimFunc's parameters (count, dtype, rank, extent, strides, offset,
    aliasing arrays); .function and .parameter name them, the message has both values."""

    function = ""
    parameter = ""


class TirIndexError(TirRuntimeError, IndexError):
    """A buffer access outside the buffer's shape; .buffer names the buffer."""

    buffer = ""


class TirDivisionByZero(TirRuntimeError, ZeroDivisionError):
    """An integer division or modulo by zero in a TIR program."""


class TirAssertionError(TirRuntimeError, AssertionError):
    """A T.Assert whose condition was false; .assert_message is the assert's own text."""

    assert_message = ""


class TirNotLowerable(Error, NotImplementedError):
    """A construct the compiled path cannot lower (the interpreter may still run it); .construct names it."""

    line = 0
    construct = ""


class TirSpecWarning(UserWarning):
    """onegrad.tir.Module.check() accepted what TVM accepts and the TIR spec refuses (mixed index
    widths, `return` without an annotation, a Shuffle extracting lanes, an integer `if` condition...,
    docs/tir.md "Where the spec and TVM disagree"); the message has the line, the construct and the
    spec's rule. Module.check(strict=True) raises TirTypeError for them instead."""


# index faults: src/uop/index_error.h. Defined last: inside this module the name then means this
# class only after every other class is made (TirIndexError above derives from the builtin).
class IndexError(Error, builtins.IndexError):
    """An index value outside the size it indexes (gather, scatter, index_select, x[idx], a loss
    target, one_hot, embedding), found when the result is realized: "gather: index 7 is out of bounds
    for dimension 0 with size 5". CHECK_INDEX=0 turns the checks off (docs/tensor.md)."""
