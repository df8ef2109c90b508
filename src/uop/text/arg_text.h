// Text of the Arg alternatives, shared by the graph printer and parser. Every alternative has a
// spelling that tells it apart from the others by its first token, so an arg reads back as the
// same alternative with the same value (docs/text-form.md lists them).
#pragma once
#include <string>

#include "uop/arg.h"
#include "uop/text/text_cursor.h"

namespace onegrad {

// Append the text of `arg` (nothing for no arg). Fields equal to `node_dtype` are left out.
void write_arg(std::string& out, const Arg& arg, DType node_dtype);
// Read an arg at the cursor; no arg when the line ends or a `tag=` follows.
Arg read_arg(TextCursor& cur, DType node_dtype);

}  // namespace onegrad
