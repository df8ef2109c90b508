// The C API (tir_compile/tir_c_api.h): each entry point runs its C++ inside guarded(), which turns
// every exception into a status code and this thread's error text.
#include "tir_compile/tir_c_api.h"

#include <string>
#include <vector>

#include "tir/interpret/bind_arguments.h"
#include "tir/ast/errors.h"
#include "tir/parse/parser.h"
#include "tir_compile/dltensor.h"
#include "tir_compile/not_lowerable.h"
#include "tir_compile/run_prim_func.h"

struct OnegradTirModule {
  onegrad::tir::IRModule module;
};

namespace onegrad::tir {
namespace {

struct LastError {
  std::string text;
  int line = 0, column = 0;
};
thread_local LastError last_error;
thread_local std::string last_warnings;

int fail(OnegradTirStatus status, const std::string& text, int line = 0, int column = 0) {
  last_error = {text, line, column};
  return status;
}

// Runs body, which returns a status; exceptions become statuses (most specific class first).
template <class Body>
int guarded(Body body) {
  last_error = {};
  last_warnings.clear();
  try {
    return body();
  } catch (const TirSyntaxError& e) {
    return fail(ONEGRAD_TIR_SYNTAX_ERROR, e.what(), e.line, e.column);
  } catch (const TirTypeError& e) {
    return fail(ONEGRAD_TIR_TYPE_ERROR, e.what(), e.line, e.column);
  } catch (const TirArgumentError& e) {
    return fail(ONEGRAD_TIR_ARGUMENT_ERROR, e.what(), e.line);
  } catch (const TirRuntimeError& e) {
    return fail(ONEGRAD_TIR_RUNTIME_ERROR, e.what(), e.line);
  } catch (const TirNotLowerable& e) {
    return fail(ONEGRAD_TIR_NOT_LOWERABLE, e.what(), e.line);
  } catch (const std::exception& e) {
    return fail(ONEGRAD_TIR_ERROR, e.what());
  } catch (...) {
    return fail(ONEGRAD_TIR_ERROR, "an unknown C++ exception");
  }
}

// The C arguments as the interpreter's: tensors through array_from_dltensor, scalars as they are.
std::vector<Argument> arguments_of(const PrimFuncNode& f, const std::string& name, const OnegradTirArg* args,
                                   int32_t num_args) {
  std::vector<Argument> out;
  for (int32_t i = 0; i < num_args; ++i) {
    const OnegradTirArg& a = args[i];
    const std::string param = static_cast<size_t>(i) < f.params.size() ? parameter_label(f, i)
                                                                        : "argument " + std::to_string(i);
    switch (a.kind) {
      case ONEGRAD_TIR_ARG_TENSOR:
        if (!a.value.tensor) throw TirArgumentError(name, param, "the DLTensor pointer is null", f.loc.line);
        out.emplace_back(array_from_dltensor(*a.value.tensor, name, param, f.loc.line));
        break;
      case ONEGRAD_TIR_ARG_INT: out.emplace_back(a.value.i); break;
      case ONEGRAD_TIR_ARG_FLOAT: out.emplace_back(a.value.f); break;
      default:
        throw TirArgumentError(name, param, "unknown argument kind " + std::to_string(a.kind),
                               f.loc.line);
    }
  }
  return out;
}

OnegradTirValue value_of(const std::optional<RuntimeValue>& r) {
  OnegradTirValue v{ONEGRAD_TIR_VALUE_NONE, 0, 0.0};
  if (!r) return v;
  if (r->dtype.is_float()) {
    v.kind = ONEGRAD_TIR_VALUE_FLOAT;
    v.f = r->float_at(0);
  } else {
    v.kind = ONEGRAD_TIR_VALUE_INT;
    v.i = r->int_at(0);
  }
  return v;
}

}  // namespace
}  // namespace onegrad::tir

using namespace onegrad::tir;

extern "C" {

const char* onegrad_tir_last_error(void) { return last_error.text.c_str(); }
int onegrad_tir_last_error_line(void) { return last_error.line; }
int onegrad_tir_last_error_column(void) { return last_error.column; }

int onegrad_tir_parse(const char* text, OnegradTirModule** out) {
  return guarded([&] {
    if (!text || !out) return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_parse: text and out must not be NULL");
    *out = nullptr;
    *out = new OnegradTirModule{parse_script(text)};
    return static_cast<int>(ONEGRAD_TIR_OK);
  });
}

int onegrad_tir_check(const OnegradTirModule* module) { return onegrad_tir_check_strict(module, 0); }

int onegrad_tir_check_strict(const OnegradTirModule* module, int32_t strict) {
  return guarded([&] {
    if (!module) return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_check: module is NULL");
    for (const TypeIssue& w : check_module(module->module, strict ? SpecMode::Strict : SpecMode::AsTvm))
      last_warnings += w.warning_string() + "\n";
    return static_cast<int>(ONEGRAD_TIR_OK);
  });
}

const char* onegrad_tir_last_warnings(void) { return last_warnings.c_str(); }

int onegrad_tir_function_count(const OnegradTirModule* module, int32_t* count) {
  return guarded([&] {
    if (!module || !count) return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_function_count: module and count must not be NULL");
    *count = static_cast<int32_t>(module->module.functions.size());
    return static_cast<int>(ONEGRAD_TIR_OK);
  });
}

int onegrad_tir_function_name(const OnegradTirModule* module, int32_t index, const char** name) {
  return guarded([&] {
    if (!module || !name) return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_function_name: module and name must not be NULL");
    const auto& functions = module->module.functions;
    if (index < 0 || static_cast<size_t>(index) >= functions.size())
      return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_function_name: index " + std::to_string(index) +
                                         " is out of range (the module has " + std::to_string(functions.size()) +
                                         " functions)");
    *name = functions[index].first.c_str();
    return static_cast<int>(ONEGRAD_TIR_OK);
  });
}

int onegrad_tir_call(const OnegradTirModule* module, const char* name, const OnegradTirArg* args, int32_t num_args,
                     int32_t mode, OnegradTirValue* ret) {
  return guarded([&] {
    if (!module || !name || (num_args > 0 && !args) || num_args < 0)
      return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_call: module, name and args (when num_args > 0) must not be NULL, "
                                     "num_args not negative");
    if (mode != ONEGRAD_TIR_INTERPRET && mode != ONEGRAD_TIR_COMPILED)
      return fail(ONEGRAD_TIR_ERROR, "onegrad_tir_call: unknown mode " + std::to_string(mode));
    const PrimFuncNode& f = find_function(module->module, name);
    std::vector<Argument> arguments = arguments_of(f, name, args, num_args);
    std::optional<RuntimeValue> r = mode == ONEGRAD_TIR_COMPILED ? run_compiled(module->module, name, arguments)
                                                                 : run_interpreted(module->module, name, arguments);
    if (ret) *ret = value_of(r);
    return static_cast<int>(ONEGRAD_TIR_OK);
  });
}

void onegrad_tir_free(OnegradTirModule* module) { delete module; }

}  // extern "C"
