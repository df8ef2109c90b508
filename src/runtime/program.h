// A loaded kernel, ready to launch. The runtime knows of a program only its entry name and how many
// buffers and variable values it takes; the backend subclass knows how to launch it.
//
// Calling convention (docs/runtime.md): the renderer emits, for each kernel NAME,
//   void NAME(void** bufs, const int64_t* vars);
// bufs holds the buffers' storage in parameter order, vars the symbolic variables' values in order.
// A kernel with a THREAD axis takes the thread's index in it instead of looping over it,
//   void NAME(void** bufs, const int64_t* vars, int64_t thread);
// and is launched once per index, on the CPU's thread pool (runtime/thread_pool.h).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace onegrad {

class Buffer;

// What a kernel declares: its entry symbol and the counts of its parameters.
struct ProgramSpec {
  std::string name;    // the entry symbol; a C identifier
  std::string source;  // the backend's source text
  int num_buffers = 0;
  int num_vars = 0;
  // The bound of the kernel's THREAD axis: the entry takes a thread index and is called once for
  // each of 0..threads-1. 0: no THREAD axis, one call of the two-argument entry.
  int threads = 0;
  // A workgroup size per launch dim for a backend with workgroups (OpenCL); empty: the driver picks.
  // A launch of a kernel with a THREAD axis covers `threads` work items in dim 0.
  std::vector<int64_t> local;
  // The work items per launch dim of a kernel with launch axes (codegen/launch_dims.h: workgroups
  // times `local`); empty: none (the THREAD rule above, or one work item).
  std::vector<int64_t> global;
};

class Program {
 public:
  virtual ~Program() = default;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  const std::string& name() const { return name_; }
  const std::string& device() const { return device_; }
  int num_buffers() const { return num_buffers_; }
  int num_vars() const { return num_vars_; }
  int threads() const { return threads_; }
  const std::vector<int64_t>& local() const { return local_; }
  const std::vector<int64_t>& global() const { return global_; }
  // The seconds the device itself measured for the last launch (OpenCL profiling events); none
  // where the backend measures nothing (the CPU: time the call).
  virtual std::optional<double> device_seconds() const { return std::nullopt; }
  // For a CPU program with a THREAD axis: whether its launches run every part on the launching
  // thread (too small for the pool: runtime/inline_launch.h) or on the pool; none before its first
  // launches decided, for a program without threads, or on another backend.
  virtual std::optional<bool> runs_inline() const { return std::nullopt; }

  // Throws DeviceError unless `bufs` and `vars` fit this program: the counts it declares, no null
  // buffer, every buffer on this program's device. Launching with the wrong arguments would read
  // or write memory the kernel does not own, so this is checked on every launch.
  void check_args(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const;
  // Checks the arguments and runs the kernel to completion: enqueue() then wait().
  void run(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const;
  // Checks the arguments and starts the kernel. A device with a queue (OpenCL) returns before the
  // kernel ends, so a command buffer pays one wait, not one per launch; its later launches, copies
  // and reads of the same device are ordered after it. The CPU runs it to completion here.
  void enqueue(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const;
  // Returns once every launch of this program has ended (and device_seconds() has the last one's time).
  virtual void wait() const {}
  // Runs the kernel on memory the caller owns (a compiled TIR PrimFunc on the user's arrays: no
  // copies, no runtime Buffers). Only for a device whose memory is host memory (CPU); checks the
  // counts and that no pointer is null, as run() does.
  void run_on_host(std::span<void* const> data, std::span<const int64_t> vars) const;

 protected:
  Program(const ProgramSpec& spec, std::string device);
  // Launches with checked arguments: `bufs` holds one storage pointer per buffer.
  virtual void launch(void** bufs, const int64_t* vars) const = 0;
  // Launches run() with checked arguments. The default hands launch() host pointers; a backend on
  // its own memory overrides it to pass each buffer's allocation handle and offset (Buffer::handle).
  virtual void launch_buffers(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const;

 private:
  std::string name_;
  std::string device_;
  int num_buffers_;
  int num_vars_;
  int threads_;
  std::vector<int64_t> local_;
  std::vector<int64_t> global_;
};

// True if `name` is a C identifier (letters, digits, '_'; not starting with a digit).
bool is_c_identifier(std::string_view name);

}  // namespace onegrad
