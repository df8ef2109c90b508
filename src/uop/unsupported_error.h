// UnsupportedError: a program that asks for something onegrad cannot run yet (an ONNX op,
// attribute or opset it does not implement); the message names what and where. Python:
// onegrad.errors.UnsupportedError, a NotImplementedError. (Apart from errors.h, which every file
// includes, so that adding it rebuilt nothing.)
#pragma once
#include "uop/errors.h"

namespace onegrad {

struct UnsupportedError : Error {
  using Error::Error;
};

}  // namespace onegrad
