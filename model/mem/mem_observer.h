/* SPDX-License-Identifier: MIT
 * mem_observer.h - callbacks that let a study watch L1 MSHR events as they happen (e.g. Gong
 * ch.6's locality study: which SM allocated which line when, and how many requests each entry
 * served). The memory system also counts duplicates itself ([mem] dup_mshr_window).
 *
 * Design: all callbacks are optional and get the time as an argument; they must not call back
 * into the memory system. Line addresses are the first byte of the L1 line.
 */
#ifndef HD_MEM_OBSERVER_H
#define HD_MEM_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>

struct hd_mem_observer {
    void *ctx;
    /* SM `sm` allocated an MSHR entry for `line` (a new fill); `dup`: another SM allocated the
     * same line within the duplicate window. */
    void (*mshr_alloc)(void *ctx, unsigned sm, uint64_t line, uint32_t kernel, bool dup,
                       uint64_t now);
    /* A request of `kernel` merged into SM sm's entry for `line`. */
    void (*mshr_merge)(void *ctx, unsigned sm, uint64_t line, uint32_t kernel, uint64_t now);
    /* The line arrived at SM sm; its entry had served `requests` requests. */
    void (*mshr_fill)(void *ctx, unsigned sm, uint64_t line, uint32_t requests, uint64_t now);
};

#endif
