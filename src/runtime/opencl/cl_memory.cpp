// CL device memory: one cl_mem per allocation; views reach it by offset (Buffer::handle), and host
// data moves by blocking reads and writes on the device's queue, which also orders them after the
// kernels launched before.
#ifdef ONEGRAD_HAVE_OPENCL
#include "runtime/opencl/cl_api.h"

namespace onegrad::cl {

namespace {

class ClAllocator final : public Allocator {
 public:
  explicit ClAllocator(std::shared_ptr<Context> ctx) : ctx_(std::move(ctx)) {}
  bool host_memory() const override { return false; }

  void copyin(void* storage, size_t offset, const void* src, size_t nbytes) override {
    check(clEnqueueWriteBuffer(ctx_->queue, static_cast<cl_mem>(storage), CL_TRUE, offset, nbytes, src, 0, nullptr, nullptr),
          ctx_->name + ": copy of " + std::to_string(nbytes) + " bytes to the device");
  }
  void copyout(void* storage, size_t offset, void* dst, size_t nbytes) override {
    check(clEnqueueReadBuffer(ctx_->queue, static_cast<cl_mem>(storage), CL_TRUE, offset, nbytes, dst, 0, nullptr, nullptr),
          ctx_->name + ": copy of " + std::to_string(nbytes) + " bytes from the device");
  }

 protected:
  void* raw_alloc(size_t nbytes) override {
    cl_int err = CL_SUCCESS;
    // a zero-byte request still gets its own object (OpenCL refuses size 0)
    cl_mem m = clCreateBuffer(ctx_->context, CL_MEM_READ_WRITE, nbytes == 0 ? 1 : nbytes, nullptr, &err);
    check(err, ctx_->name + ": allocating " + std::to_string(nbytes) + " bytes");
    return m;
  }
  void raw_free(void* ptr, size_t) override { clReleaseMemObject(static_cast<cl_mem>(ptr)); }

 private:
  std::shared_ptr<Context> ctx_;
};

}  // namespace

std::unique_ptr<Allocator> make_allocator(std::shared_ptr<Context> ctx) { return std::make_unique<ClAllocator>(std::move(ctx)); }

}  // namespace onegrad::cl
#endif
