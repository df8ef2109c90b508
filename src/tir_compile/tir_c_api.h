/* The C API of onegrad's TIR layer (docs/tir.md "Calling convention"): parse TVMScript, check it,
 * and call its PrimFuncs on DLPack tensors, interpreted or compiled. Plain C (C99): every function
 * returns a status code and never lets a C++ exception cross the boundary; on failure the text of
 * the error (with its line, and the function and parameter it concerns) is kept per thread until
 * the next call and read with onegrad_tir_last_error(). */
#ifndef ONEGRAD_TIR_C_API_H
#define ONEGRAD_TIR_C_API_H

#include <dlpack/dlpack.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  ONEGRAD_TIR_OK = 0,
  ONEGRAD_TIR_SYNTAX_ERROR = 1,   /* text that is not TVMScript (TirSyntaxError) */
  ONEGRAD_TIR_TYPE_ERROR = 2,     /* typing or well-formedness issues (onegrad_tir_check) */
  ONEGRAD_TIR_ARGUMENT_ERROR = 3, /* arguments that do not fit the function (TirArgumentError) */
  ONEGRAD_TIR_RUNTIME_ERROR = 4,  /* the program failed while running (TirRuntimeError) */
  ONEGRAD_TIR_NOT_LOWERABLE = 5,  /* the compiled path cannot lower a construct (TirNotLowerable) */
  ONEGRAD_TIR_ERROR = 6,          /* anything else, a null pointer argument included */
} OnegradTirStatus;

/* A parsed IRModule; opaque. */
typedef struct OnegradTirModule OnegradTirModule;

typedef enum { ONEGRAD_TIR_ARG_TENSOR = 0, ONEGRAD_TIR_ARG_INT = 1, ONEGRAD_TIR_ARG_FLOAT = 2 } OnegradTirArgKind;

/* One argument: a tensor for a buffer or handle parameter (the tensor is read and written in
 * place, never copied), an integer or a float for a scalar parameter. */
typedef struct {
  int32_t kind; /* an OnegradTirArgKind (an int32_t: a fixed size, and C++ may read any value) */
  union {
    const DLTensor* tensor;
    int64_t i;
    double f;
  } value;
} OnegradTirArg;

typedef enum { ONEGRAD_TIR_VALUE_NONE = 0, ONEGRAD_TIR_VALUE_INT = 1, ONEGRAD_TIR_VALUE_FLOAT = 2 } OnegradTirValueKind;

/* What tir.ret returned: NONE when the function ended without it. Vectors give their lane 0. */
typedef struct {
  OnegradTirValueKind kind;
  int64_t i;
  double f;
} OnegradTirValue;

typedef enum { ONEGRAD_TIR_INTERPRET = 0, ONEGRAD_TIR_COMPILED = 1 } OnegradTirMode;

/* The error text of this thread's last failed call ("" after a success); valid until the next call. */
const char* onegrad_tir_last_error(void);
/* Line and column of that error in the TVMScript text (0 when it has none). */
int onegrad_tir_last_error_line(void);
int onegrad_tir_last_error_column(void);

/* Parses TVMScript `text` (NUL-terminated) into *out, which onegrad_tir_free releases. Parsing only:
 * onegrad_tir_check applies the typing and well-formedness rules. */
int onegrad_tir_parse(const char* text, OnegradTirModule** out);
/* ONEGRAD_TIR_TYPE_ERROR listing every issue, one a line, when the module breaks a rule. What TVM
 * accepts and the spec refuses (docs/tir.md "Where the spec and TVM disagree") is a warning, read
 * with onegrad_tir_last_warnings(); onegrad_tir_check_strict with strict != 0 makes it an error. */
int onegrad_tir_check(const OnegradTirModule* module);
int onegrad_tir_check_strict(const OnegradTirModule* module, int32_t strict);
/* The warnings of this thread's last check, one a line ("line 6, column 9: IfThenElse: ... [spec
 * rule ...]"; "" when none); valid until the next call. */
const char* onegrad_tir_last_warnings(void);
/* The number of functions, and the name of function `index` (valid while the module lives). */
int onegrad_tir_function_count(const OnegradTirModule* module, int32_t* count);
int onegrad_tir_function_name(const OnegradTirModule* module, int32_t index, const char** name);
/* Calls function `name` on `args` (num_args of them); ret (may be NULL) receives the tir.ret value. */
int onegrad_tir_call(const OnegradTirModule* module, const char* name, const OnegradTirArg* args, int32_t num_args,
                     int32_t mode, OnegradTirValue* ret); /* mode: an OnegradTirMode */
/* Releases a module from onegrad_tir_parse; NULL is fine. */
void onegrad_tir_free(OnegradTirModule* module);

#ifdef __cplusplus
}
#endif

#endif /* ONEGRAD_TIR_C_API_H */
