/* Cross-core cache-line round trip, for benches/scaling.sh: two threads pinned
 * to CPUs A and B (default 0 and 1) bounce one atomic counter; prints the mean
 * round trip in nanoseconds. On a VM the host may place two vCPUs on cores
 * that share a cache (tens of ns) or not (hundreds), and move them while it
 * runs: a threaded run that hands data between its threads slows with it.
 *
 *   cc -O2 -pthread -o core_to_core benches/core_to_core.c && ./core_to_core [A B]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 1000000L

static _Atomic long flag __attribute__((aligned(64)));

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *pong(void *arg) {
    pin(*(int *)arg);
    for (long i = 0; i < ROUNDS; i++) {
        while (atomic_load_explicit(&flag, memory_order_acquire) != 2 * i + 1) {
        }
        atomic_store_explicit(&flag, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int a = argc > 2 ? atoi(argv[1]) : 0, b = argc > 2 ? atoi(argv[2]) : 1;
    pthread_t thread;
    struct timespec start, end;
    pin(a);
    pthread_create(&thread, NULL, pong, &b);
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < ROUNDS; i++) {
        atomic_store_explicit(&flag, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&flag, memory_order_acquire) != 2 * i + 2) {
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    pthread_join(thread, NULL);
    double ns = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / ROUNDS;
    printf("%.0f\n", ns);
    return 0;
}
