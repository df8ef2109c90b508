// data (issue 5): the errors of reading and writing files (safetensors, IDX, data sets). They belong
// with the classes of errors.h and derive from its Error; they live apart only so that adding them
// did not rebuild every file that includes errors.h (fold them in at the next edit of errors.h).
#pragma once
#include "uop/errors.h"

namespace onegrad {

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

}  // namespace onegrad
