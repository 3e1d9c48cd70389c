/* SPDX-License-Identifier: MIT
 * haws_episode.h - what the HAWS run-ahead tests share (haws_unit.c, haws_backedge.c): the
 * CHECK macro counting checks and stopping on the first failure with the test's name, and one
 * run-ahead episode's renamed results with the lookup the functional model's run-ahead step reads
 * its renamed sources through (docs/blocks/haws.md §2, Gong §5.2.2).
 * The including file defines HAWS_TEST_NAME ("haws_unit") and NRES (the episode's capacity)
 * first.
 */
#ifndef HD_TEST_HAWS_EPISODE_H
#define HD_TEST_HAWS_EPISODE_H

#include "exec_ahead.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned checks;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(c)) {                                                                                \
            fprintf(stderr, HAWS_TEST_NAME ": FAILED: " __VA_ARGS__);                              \
            fputc('\n', stderr);                                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct episode {
    struct hd_func_ahead_result r[NRES];
    uint32_t step[NRES], n;
};

/* The newest renamed value of `reg` in the episode, or NULL (the architectural one is read). */
static const uint64_t *lookup(void *ctx, int32_t reg)
{
    const struct episode *e = ctx;
    for (uint32_t k = e->n; k-- > 0;)
        for (uint32_t j = 0; j < e->r[k].ndst; j++)
            if (e->r[k].reg[j] == reg)
                return e->r[k].v[j];
    return NULL;
}

#endif
