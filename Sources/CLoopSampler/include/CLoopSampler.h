#ifndef CLOOPSAMPLER_H
#define CLOOPSAMPLER_H

#include <stdint.h>

/// Stack samples of one thread, taken by a signal to that thread (Linux). The handler only unwinds into a buffer
/// set aside beforehand and flips an atomic flag; everything else (the request, the wait, reading the frames) is
/// done by the sampling thread. One sample at a time in the process.

/// The most frames one sample holds.
#define LOOP_SAMPLER_MAX_FRAMES 128

/// Installs the handler of the sampling signal (a real-time signal no one else has a handler for). 0 on success;
/// -1 when no signal is free or sampling is not available on this platform.
int loop_sampler_install(void);

/// Unblocks the sampling signal in the calling thread (a thread started from a dispatch worker inherits a mask
/// that blocks it). Call it on the thread to be sampled, after `loop_sampler_install`.
void loop_sampler_unblock(void);

/// The calling thread's kernel thread id (to pass to `loop_sampler_capture` from another thread).
int64_t loop_sampler_thread_id(void);

/// Interrupts thread `tid` of this process, unwinds its stack from the interrupted instruction into `frames`
/// (at most `capacity`, bounded by LOOP_SAMPLER_MAX_FRAMES) and returns how many were written: 0 when the thread
/// did not take the signal within `timeout_us` microseconds (gone, or blocking it), -1 when not installed.
int loop_sampler_capture(int64_t tid, uint64_t *frames, int capacity, int timeout_us);

/// Calls `each(context, path, base, low, high, build_id, build_id_length)` for every object loaded in the process:
/// its file (the main program: "" on Linux), the address it was loaded at (added to the file's addresses), the
/// extent of its loaded segments, and its GNU build ID (NULL and 0 when it has none; at most 64 bytes), which tells
/// whether the file read later is the one that was loaded.
void loop_sampler_modules(void *context,
                          void (*each)(void *context, const char *path, uint64_t base, uint64_t low, uint64_t high,
                                       const uint8_t *build_id, int build_id_length));

#endif
