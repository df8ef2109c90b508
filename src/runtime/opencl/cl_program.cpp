// OpenCL programs: built from OpenCL C by the driver, kept on disk as the driver's binary (the
// program cache's object), loaded from it with clCreateProgramWithBinary, launched on the queue.
//
// Launch convention (render/opencl_dialect.h): the entry kernel takes, per buffer, its cl_mem and a
// byte offset (a view inside a larger allocation), then a `vars` buffer of int64 values (null when
// the kernel has none). A kernel with a THREAD axis runs as `threads` work items in dim 0; one with
// launch axes as ProgramSpec::global work items in workgroups of ProgramSpec::local.
#ifdef ONEGRAD_HAVE_OPENCL
#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <mutex>
#include <utility>
#include <unistd.h>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/opencl/cl_api.h"
#include "uop/errors.h"

namespace onegrad::cl {

namespace {
namespace fs = std::filesystem;

// Kernels keep IEEE results (no -cl-fast-relaxed-math, no -cl-mad-enable); division and sqrt are
// correctly rounded where the device can do that (as C's are).
std::string build_options(const Context& ctx) {
  cl_device_fp_config fp = 0;
  clGetDeviceInfo(ctx.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr);
  return (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) ? "-cl-fp32-correctly-rounded-divide-sqrt" : "";
}

std::string build_log(const Context& ctx, cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, ctx.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(p, ctx.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  return std::to_string(getpid()) + "." + std::to_string(counter++);
}

class ClCompiler final : public Compiler {
 public:
  explicit ClCompiler(std::shared_ptr<Context> ctx)
      : ctx_(std::move(ctx)), options_(build_options(*ctx_)), id_("opencl|" + ctx_->driver_id + "|" + options_) {}
  const std::string& cache_id() const override { return id_; }
  std::string_view object_extension() const override { return ".clbin"; }

  void compile(std::string_view source, const fs::path& out) const override {
    const char* text = source.data();
    size_t len = source.size();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx_->context, 1, &text, &len, &err);
    check(err, ctx_->name + ": clCreateProgramWithSource");
    if (clBuildProgram(p, 1, &ctx_->device, options_.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      std::string log = build_log(*ctx_, p);
      clReleaseProgram(p);
      throw CompileError(ctx_->name + ": the OpenCL C did not build:\n" + log + "\n--- source ---\n" + std::string(source));
    }
    size_t size = 0;
    err = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
    std::vector<unsigned char> binary(size);
    unsigned char* ptr = binary.data();
    if (err == CL_SUCCESS) err = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr);
    clReleaseProgram(p);
    check(err, ctx_->name + ": reading the built program's binary");
    // written next to its final place, then renamed: a concurrent reader never sees half a binary
    std::error_code ec;
    fs::create_directories(out.parent_path(), ec);
    fs::path tmp = out;
    tmp += ".tmp." + unique_suffix();
    {
      std::ofstream f(tmp, std::ios::binary);
      f.write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
      if (!f) throw CompileError(ctx_->name + ": cannot write " + tmp.string());
    }
    fs::rename(tmp, out, ec);
    if (ec) {
      fs::remove(tmp, ec);
      throw CompileError(ctx_->name + ": cannot place " + out.string());
    }
  }

 private:
  std::shared_ptr<Context> ctx_;
  std::string options_;
  std::string id_;
};

class ClProgram final : public Program {
 public:
  ClProgram(const ProgramSpec& spec, std::shared_ptr<Context> ctx, cl_program program, cl_kernel kernel)
      : Program(spec, ctx->name), ctx_(std::move(ctx)), program_(program), kernel_(kernel) {
    // The entry takes (buffer, offset) per slot up to the highest the kernel reads, then vars
    // (render/opencl_dialect.h): slots above it, whose uses folded away, are not passed.
    cl_uint args = 0;
    check(clGetKernelInfo(kernel_, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr), device() + ": the arguments of '" + name() + "'");
    entry_buffers_ = args > 0 ? (args - 1) / 2 : 0;
  }
  ~ClProgram() override {
    if (last_) {
      clWaitForEvents(1, &last_);
      clReleaseEvent(last_);
    }
    clReleaseKernel(kernel_);
    clReleaseProgram(program_);
  }
  std::optional<double> device_seconds() const override {
    double s = last_seconds_.load();
    return s < 0 ? std::nullopt : std::optional<double>(s);
  }

 protected:
  void launch(void**, const int64_t*) const override {
    throw DeviceError("program '" + name() + "' runs on " + device() + ", not on host memory");
  }

  void launch_buffers(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const override {
    cl_mem var_mem = nullptr;
    cl_int err = CL_SUCCESS;
    if (!vars.empty()) {
      var_mem = clCreateBuffer(ctx_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, vars.size_bytes(),
                               const_cast<int64_t*>(vars.data()), &err);
      check(err, device() + ": the variables of '" + name() + "'");
    }
    std::lock_guard lock(mu_);  // a kernel object's arguments are shared by every thread launching it
    if (entry_buffers_ > bufs.size())
      throw DeviceError(device() + ": '" + name() + "' takes " + std::to_string(entry_buffers_) + " buffers, got " + std::to_string(bufs.size()));
    cl_uint arg = 0;
    for (Buffer* b : bufs.first(entry_buffers_)) {
      auto [storage, offset] = b->handle();
      cl_mem m = static_cast<cl_mem>(storage);
      cl_ulong off = offset;
      check(clSetKernelArg(kernel_, arg++, sizeof m, &m), device() + ": buffer argument of '" + name() + "'");
      check(clSetKernelArg(kernel_, arg++, sizeof off, &off), device() + ": offset argument of '" + name() + "'");
    }
    check(clSetKernelArg(kernel_, arg, sizeof var_mem, &var_mem), device() + ": variables argument of '" + name() + "'");
    const std::vector<int64_t>& group = local();
    size_t global[3] = {size_t(threads() > 0 ? threads() : 1), 1, 1}, sizes[3] = {1, 1, 1};
    cl_uint dims = cl_uint(std::clamp<size_t>(std::max(group.size(), this->global().size()), 1, 3));
    for (size_t i = 0; i < group.size() && i < 3; i++) sizes[i] = size_t(group[i]);
    for (size_t i = 0; i < this->global().size() && i < 3; i++) global[i] = size_t(this->global()[i]);
    cl_event ev = nullptr;
    err = clEnqueueNDRangeKernel(ctx_->queue, kernel_, dims, nullptr, global, group.empty() ? nullptr : sizes, 0, nullptr, &ev);
    // Released now, freed by OpenCL once the queued launch that reads it has ended.
    if (var_mem) clReleaseMemObject(var_mem);
    check(err, device() + ": launching '" + name() + "' over " + std::to_string(global[0]) + " work items");
    if (last_) clReleaseEvent(last_);
    last_ = ev;  // the queue is in order: waiting for this launch waits for every earlier one
  }

 public:
  void wait() const override {
    std::lock_guard lock(mu_);
    if (last_ == nullptr) return;
    cl_event ev = std::exchange(last_, nullptr);
    cl_int err = clWaitForEvents(1, &ev);
    cl_ulong t0 = 0, t1 = 0;
    if (err == CL_SUCCESS && clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr) == CL_SUCCESS)
      last_seconds_ = double(t1 - t0) * 1e-9;
    clReleaseEvent(ev);
    check(err, device() + ": waiting for '" + name() + "'");
  }

 private:
  std::shared_ptr<Context> ctx_;
  cl_program program_;
  cl_kernel kernel_;
  size_t entry_buffers_ = 0;  // the buffers the entry takes (the first ones passed)
  mutable std::mutex mu_;
  mutable cl_event last_ = nullptr;  // the latest launch not yet waited for (guarded by mu_)
  mutable std::atomic<double> last_seconds_{-1.0};
};

class ClLoader final : public ProgramLoader {
 public:
  explicit ClLoader(std::shared_ptr<Context> ctx) : ctx_(std::move(ctx)) {}

  std::shared_ptr<Program> load(const fs::path& object, const ProgramSpec& spec, const RuntimeDevice&) const override {
    std::ifstream f(object, std::ios::binary);
    std::vector<unsigned char> binary((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (binary.empty()) throw DeviceError("cannot load OpenCL binary " + object.string() + ": empty or unreadable");
    const unsigned char* ptr = binary.data();
    size_t size = binary.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(ctx_->context, 1, &ctx_->device, &size, &ptr, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
      if (p) clReleaseProgram(p);
      throw DeviceError("cannot load OpenCL binary " + object.string() + ": " + error_name(err != CL_SUCCESS ? err : status));
    }
    if ((err = clBuildProgram(p, 1, &ctx_->device, nullptr, nullptr, nullptr)) != CL_SUCCESS) {
      clReleaseProgram(p);
      throw DeviceError("cannot load OpenCL binary " + object.string() + ": " + error_name(err));
    }
    cl_kernel k = clCreateKernel(p, spec.name.c_str(), &err);
    if (err != CL_SUCCESS) {
      clReleaseProgram(p);
      throw DeviceError("OpenCL binary " + object.string() + " has no kernel '" + spec.name + "': " + error_name(err));
    }
    return std::make_shared<ClProgram>(spec, ctx_, p, k);
  }

 private:
  std::shared_ptr<Context> ctx_;
};

}  // namespace

std::unique_ptr<Compiler> make_compiler(std::shared_ptr<Context> ctx) { return std::make_unique<ClCompiler>(std::move(ctx)); }
std::unique_ptr<ProgramLoader> make_loader(std::shared_ptr<Context> ctx) { return std::make_unique<ClLoader>(std::move(ctx)); }

}  // namespace onegrad::cl
#endif
