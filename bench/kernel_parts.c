// One generated CPU kernel alone, its THREAD parts spread over N threads the way the runtime's pool
// does (each thread claims the next part until none is left): the minimum and median of ITERS calls.
// A kernel's C comes from DEBUG=4 (after "*** kernel N NAME: source"); compile it with the flags of
// src/runtime/cpu_compiler.h, then:
//
//   gcc -O2 bench/kernel_parts.c -o /tmp/kernel_parts -lpthread -ldl
//   gcc -O2 -funswitch-loops -march=native -fno-trapping-math -fPIC -shared -std=c11 -ffp-contract=off k.c -o k.so -lm
//   /tmp/kernel_parts ./k.so NAME PARTS THREADS [ITERS]
//
// Every buffer argument gets its own 16 MiB of floats (j % 97) * 0.01, enough for the models'
// kernels; the variables (symbolic dims) are 0. With THREADS 1 and CPU_CLOCK=1 set, each call is
// timed by the thread's CPU time, which other processes taking the core do not inflate.
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void (*Kernel)(void**, const int64_t*, int64_t);
enum { kBuffers = 16, kMaxThreads = 64 };
static const size_t kFloats = (size_t)1 << 22;

static Kernel kernel;
static void* bufs[kBuffers];
static int64_t vars[8];
static int parts;
static atomic_int next_part, parts_done, launch;
static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
  struct timespec t;
  clock_gettime(clock_id, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void drain(void) {
  for (;;) {
    int p = atomic_fetch_add(&next_part, 1);
    if (p >= parts) return;
    kernel(bufs, vars, p);
    atomic_fetch_add(&parts_done, 1);
  }
}

static void* worker(void* unused) {
  (void)unused;
  for (int seen = 0;;) {
    while (atomic_load(&launch) == seen) {
    }
    seen = atomic_load(&launch);
    drain();
  }
  return NULL;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s KERNEL.so NAME PARTS THREADS [ITERS]\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (lib == NULL) return fprintf(stderr, "%s\n", dlerror()), 1;
  kernel = (Kernel)dlsym(lib, argv[2]);
  if (kernel == NULL) return fprintf(stderr, "%s has no symbol %s\n", argv[1], argv[2]), 1;
  parts = atoi(argv[3]);
  int threads = atoi(argv[4]), iters = argc > 5 ? atoi(argv[5]) : 300;
  if (parts < 1 || threads < 1 || threads > kMaxThreads || iters < 1)
    return fprintf(stderr, "PARTS, ITERS at least 1; THREADS 1..%d\n", kMaxThreads), 2;
  if (threads == 1 && getenv("CPU_CLOCK") != NULL) clock_id = CLOCK_THREAD_CPUTIME_ID;
  for (int i = 0; i < kBuffers; i++) {
    float* f = aligned_alloc(64, kFloats * sizeof(float));
    if (f == NULL) return fprintf(stderr, "out of memory\n"), 1;
    for (size_t j = 0; j < kFloats; j++) f[j] = (float)(j % 97) * 0.01f;
    bufs[i] = f;
  }
  pthread_t workers[kMaxThreads];
  for (int i = 1; i < threads; i++) pthread_create(&workers[i], NULL, worker, NULL);
  double* ms = malloc(sizeof(double) * (size_t)iters);
  for (int r = 0; r < iters; r++) {
    double start = now();
    // parts_done is cleared before parts can be claimed: a worker still leaving the last launch's
    // drain may claim this launch's first part as soon as next_part is 0, and its count must stay.
    atomic_store(&parts_done, 0);
    atomic_store(&next_part, 0);
    atomic_fetch_add(&launch, 1);
    drain();
    while (atomic_load(&parts_done) < parts) {
    }
    ms[r] = (now() - start) * 1e3;
  }
  qsort(ms, (size_t)iters, sizeof(double), by_value);
  printf("%-28s parts %2d threads %d  min %.3f  median %.3f ms\n", argv[2], parts, threads, ms[0], ms[iters / 2]);
  return 0;
}
