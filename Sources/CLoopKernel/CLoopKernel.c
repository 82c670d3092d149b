#define _GNU_SOURCE
#include "CLoopKernel.h"
#include <poll.h>
#include <time.h>

#ifdef __linux__
int lv_ppoll_one(int fd, int64_t timeout_ns) {
    struct pollfd pfd = { .fd = fd, .events = POLLIN, .revents = 0 };
    if (timeout_ns < 0) {
        return ppoll(&pfd, 1, NULL, NULL);
    }
    struct timespec ts = { .tv_sec = timeout_ns / 1000000000LL, .tv_nsec = timeout_ns % 1000000000LL };
    return ppoll(&pfd, 1, &ts, NULL);
}
#endif

int64_t lv_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
