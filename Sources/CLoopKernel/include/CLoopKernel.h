// The Linux kernel primitives that Glibc's Swift module does not expose: eventfd, timerfd, epoll and ppoll.
// Used by the real-thread backend and by the CFRunLoop oracle (whose version-1 sources are eventfds).
#ifndef LOOPVIZ_CLOOPKERNEL_H
#define LOOPVIZ_CLOOPKERNEL_H

#include <stdint.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>

/// ppoll on one file descriptor with a timeout in nanoseconds (negative: wait forever). Returns ppoll's result.
int lv_ppoll_one(int fd, int64_t timeout_ns);

// The real backend's system calls, one wrapper each. Every wrapper retries EINTR itself and returns -errno on
// failure, so Swift never reads the thread-local errno. (`struct epoll_event` is packed on x86_64, which is why
// epoll is wrapped rather than called from Swift.)

/// Waits until `fd` is readable: `block` non-zero waits as long as it takes, zero only looks (a zero timeout).
/// Returns 1 (readable), 0 (not readable when only looking) or -errno.
int lv_wait_readable(int fd, int block);
/// A non-blocking, close-on-exec eventfd; `semaphore` non-zero: EFD_SEMAPHORE (a read takes one message).
int lv_eventfd_create(int semaphore);
/// A non-blocking, close-on-exec CLOCK_MONOTONIC timerfd.
int lv_timerfd_create(void);
/// A close-on-exec epoll instance.
int lv_epoll_create(void);
/// Registers `fd` edge-triggered for input, with `tag` as its event data (CF: EPOLLIN | EPOLLET).
int lv_epoll_add(int epfd, int fd, uint64_t tag);
/// Registers `fd` again (EPOLL_CTL_MOD): the kernel re-checks readiness and queues it if it is still readable.
int lv_epoll_rearm(int epfd, int fd, uint64_t tag);
int lv_epoll_remove(int epfd, int fd);
/// `epoll_wait(epfd, &event, 1, block ? -1 : 0)` (EINTR retried): 1 and the event's tag, 0 when nothing is
/// ready (only when not blocking), or -errno. Blocking, it sleeps and takes in one system call.
int lv_epoll_take_one(int epfd, int block, uint64_t *tag);
/// Adds one to an eventfd's counter (`eventfd_write(fd, 1)`).
int lv_eventfd_post(int fd);
/// The 8-byte read that acknowledges an eventfd or timerfd: the counter (or expirations), or -errno
/// (-EAGAIN: nothing to read).
int64_t lv_read_counter(int fd);
/// Arms a timerfd for an absolute CLOCK_MONOTONIC time in nanoseconds (at least 1); 0 disarms it.
int lv_timerfd_arm(int fd, int64_t absolute_ns);
/// Names the calling thread for debuggers and `top -H` (Linux keeps the first 15 bytes).
void lv_set_thread_name(const char *name);
/// Sets the calling thread's nice value (0 normal, 19 lowest): lets a load generator (a stress test, a bench's
/// noise) yield to the threads being measured. Returns 0 or -errno.
int lv_set_thread_niceness(int niceness);
/// Sleeps until an absolute CLOCK_MONOTONIC time in nanoseconds (EINTR resumes the sleep).
void lv_sleep_until(int64_t absolute_ns);

// The engine's lock on Linux: a futex mutex (Drepper, "Futexes Are Tricky", the exchange variant). The word is
// 0 free, 1 held, 2 held with sleepers. Uncontended, taking and giving it back is one atomic instruction each and
// no call into the C library: the engine does both around every callout, many times per loop iteration.

/// The contended path of `lv_lock_acquire`: `seen` is what the failed compare-exchange found.
void lv_lock_acquire_slow(int *word, int seen);
/// Wakes one thread sleeping on the word.
void lv_lock_wake(int *word);

static inline void lv_lock_acquire(int *word) {
    int expected = 0;
    if (__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    lv_lock_acquire_slow(word, expected);
}

static inline void lv_lock_release(int *word) {
    if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2) lv_lock_wake(word);
}
#endif

/// Reads CLOCK_MONOTONIC in nanoseconds.
int64_t lv_monotonic_ns(void);

// Atomic access to a pointer-sized cell, for the few engine fields that are read without a lock (Swift's
// Synchronization module needs macOS 15, so these keep the engine building everywhere). `static inline` so that
// Swift inlines them.

/// Loads the cell with acquire ordering.
static inline void *lv_atomic_load_pointer(void *const *cell) { return __atomic_load_n(cell, __ATOMIC_ACQUIRE); }

/// Stores `desired` if the cell holds `expected` (acquire-release); returns non-zero when it did.
static inline int lv_atomic_compare_exchange_pointer(void **cell, void *expected, void *desired) {
    return __atomic_compare_exchange_n(cell, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// Loads a flag with acquire ordering.
static inline int lv_atomic_load_int(const int *cell) { return __atomic_load_n(cell, __ATOMIC_ACQUIRE); }

/// Stores a flag with release ordering.
static inline void lv_atomic_store_int(int *cell, int value) { __atomic_store_n(cell, value, __ATOMIC_RELEASE); }

/// Stores `value` and returns what the flag held before (acquire-release).
static inline int lv_atomic_exchange_int(int *cell, int value) {
    return __atomic_exchange_n(cell, value, __ATOMIC_ACQ_REL);
}

/// Adds `delta` and returns the new value (relaxed: counters for tests and statistics).
static inline int64_t lv_atomic_add_int64(int64_t *cell, int64_t delta) {
    return __atomic_add_fetch(cell, delta, __ATOMIC_RELAXED);
}

/// Loads a counter (relaxed).
static inline int64_t lv_atomic_load_int64(const int64_t *cell) { return __atomic_load_n(cell, __ATOMIC_RELAXED); }

#endif
