/* SPDX-License-Identifier: MIT
 * observer.h - a read/write tap on running warps for co-simulation and sampling studies
 * (Lin thesis §2.3: context samples of every resident warp's registers).
 *
 * Design: an executor that runs a launch (the functional runner, the timing model) calls the
 * launch's observer, when it has one, at two kinds of points: every `every` units of its own time
 * (warp instructions of the launch in the functional runner, SM cycles in the timing model) for
 * each resident CTA ("context sample"), and whenever all warps of a CTA have just been released
 * from a barrier together (the TB-level sample point: every warp is at the same dynamic point).
 * Warps are between instructions at both points: the observer may read and rewrite their
 * registers (a context save/restore round trip) but must not change control state. A non-zero
 * return stops the launch with that status and the observer's message in l->err. The observer
 * is owned by whoever installed it and must outlive the launch; it holds no executor state, so
 * runs without an observer are unchanged (one pointer test per instruction).
 */
#ifndef HD_FUNC_OBSERVER_H
#define HD_FUNC_OBSERVER_H

#include <stdint.h>

struct hd_func_launch;
struct hd_func_cta;

struct hd_func_observer {
    uint64_t every; /* sample period (0: no periodic samples) */
    void *ctx;
    /* A context sample of resident CTA c at time `now`. Returns HD_FUNC_OK or an error code
     * with a message in l->err. May be NULL. */
    int (*sample)(void *ctx, struct hd_func_launch *l, struct hd_func_cta *c, uint64_t now);
    /* Every warp of c was just released from a barrier (same dynamic point). May be NULL. */
    int (*barrier)(void *ctx, struct hd_func_launch *l, struct hd_func_cta *c, uint64_t now);
};

#endif
