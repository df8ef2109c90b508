// The typed exceptions onegrad throws. User mistakes get a class of their own so callers (and the
// Python binding later) can tell them apart; every message names the op, the rule and the values.
#pragma once
#include <stdexcept>
#include <string>

namespace onegrad {

// Base of every error onegrad throws on purpose.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A value of the wrong dtype, or a dtype name that does not parse.
struct DTypeError : Error {
  using Error::Error;
};

// Shapes that do not fit together (broadcast, reshape, permute, pad, ...).
struct ShapeError : Error {
  using Error::Error;
};

// reductions/losses: an argument value an op does not take, that is neither a shape nor a
// dtype (a reduction name other than none/mean/sum, label_smoothing outside [0, 1], a negative
// class count). Python raises onegrad.errors.ArgumentError, a ValueError.
struct ArgumentError : Error {
  using Error::Error;
};

// A graph that breaks the op set or typing rules of a stage (the verifier's finding).
struct VerifyError : Error {
  using Error::Error;
};

// Text that does not parse: the message carries the line and column.
struct ParseError : Error {
  ParseError(const std::string& msg, int line, int column)
      : Error(msg), line(line), column(column) {}
  int line;
  int column;
};

// A graph rewrite that does not settle, or a rule that returned something ill-formed.
struct RewriteError : Error {
  using Error::Error;
};

// A device, buffer or program used wrongly: an unknown device name, a copy whose size does not
// match the buffer, a launch with the wrong number of buffers, a compiled object that will not load.
struct DeviceError : Error {
  using Error::Error;
};

// A kernel the backend's compiler rejects, or a compiler that cannot be run. The message carries
// the command and the compiler's own output, so the offending source line is visible.
struct CompileError : Error {
  using Error::Error;
};

// function: a traced function used wrongly: a tensor it reads that is not one of its
// arguments (implicit capture), an argument that is neither a Tensor nor a number, a value traced in
// its body realized while tracing. The message names the function. Python: onegrad.errors.FunctionError.
struct FunctionError : Error {
  using Error::Error;
};

// A file whose contents break its format (a safetensors header that is not JSON or whose offsets
// leave the file, an IDX file with a bad magic number or too few bytes, gzip data that does not
// inflate). The message names the file and the problem. Python: FormatError, a ValueError.
struct FormatError : Error {
  using Error::Error;
};

// A file that cannot be opened, read or written (missing, a directory, no permission), or a data
// set that is not installed; the message names the path and says what to do. Python: FileError,
// an OSError.
struct FileError : Error {
  using Error::Error;
};

// A broken internal invariant: a bug in onegrad, not in the user's program.
struct InternalError : Error {
  using Error::Error;
};

}  // namespace onegrad
