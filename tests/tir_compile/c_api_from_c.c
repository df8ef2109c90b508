/* The C API from a C translation unit (built as C99 with -pedantic): proves tir_c_api.h is C, and
 * runs one function through it. Exits 0 when the results match plain loops, 1 otherwise. */
#include <stdio.h>
#include <string.h>

#include "tir_compile/tir_c_api.h"

static const char* kProgram =
    "from tvm.script import tir as T\n"
    "\n"
    "@T.prim_func\n"
    "def axpy(X: T.Buffer((5,), \"float64\"), Y: T.Buffer((5,), \"float64\"), a: T.float64):\n"
    "    for i in range(5):\n"
    "        Y[i] = Y[i] + a * X[i]\n";

static DLTensor vector_of(double* data, int64_t* shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 64;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

int main(void) {
  OnegradTirModule* module = NULL;
  double x[5] = {1, 2, 3, 4, 5}, y[5] = {10, 20, 30, 40, 50};
  int64_t shape[1] = {5};
  DLTensor tx = vector_of(x, shape), ty = vector_of(y, shape);
  OnegradTirArg args[3];
  OnegradTirValue ret;
  int i, status;
  if (onegrad_tir_parse(kProgram, &module) != ONEGRAD_TIR_OK) {
    fprintf(stderr, "parse: %s\n", onegrad_tir_last_error());
    return 1;
  }
  if (onegrad_tir_check_strict(module, 1) != ONEGRAD_TIR_OK || onegrad_tir_last_warnings()[0] != '\0') {
    fprintf(stderr, "check: %s%s\n", onegrad_tir_last_error(), onegrad_tir_last_warnings());
    return 1;
  }
  args[0].kind = ONEGRAD_TIR_ARG_TENSOR;
  args[0].value.tensor = &tx;
  args[1].kind = ONEGRAD_TIR_ARG_TENSOR;
  args[1].value.tensor = &ty;
  args[2].kind = ONEGRAD_TIR_ARG_FLOAT;
  args[2].value.f = 0.5;
  status = onegrad_tir_call(module, "axpy", args, 3, ONEGRAD_TIR_COMPILED, &ret);
  if (status != ONEGRAD_TIR_OK || ret.kind != ONEGRAD_TIR_VALUE_NONE) {
    fprintf(stderr, "call: %d %s\n", status, onegrad_tir_last_error());
    return 1;
  }
  for (i = 0; i < 5; ++i)
    if (y[i] != 10.0 * (i + 1) + 0.5 * (i + 1)) {
      fprintf(stderr, "y[%d] = %g\n", i, y[i]);
      return 1;
    }
  /* X passed twice: the arrays alias, which the binding rejects with a message. */
  args[1].value.tensor = &tx;
  status = onegrad_tir_call(module, "axpy", args, 3, ONEGRAD_TIR_INTERPRET, NULL);
  if (status != ONEGRAD_TIR_ARGUMENT_ERROR || !strstr(onegrad_tir_last_error(), "must not alias")) {
    fprintf(stderr, "aliasing: %d %s\n", status, onegrad_tir_last_error());
    return 1;
  }
  onegrad_tir_free(module);
  printf("ok\n");
  return 0;
}
