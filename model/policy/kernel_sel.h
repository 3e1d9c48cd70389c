/* SPDX-License-Identifier: MIT
 * kernel_sel.h - kernel-selection policies: which resident launch the CTA scheduler serves
 * first (style rule C9).
 *
 * Design: the candidates are the launches that may place CTAs now (their stream predecessors
 * have finished, they have CTAs left, and they are running or a concurrent-kernel slot is free),
 * in submission order. The policy ranks them; the CTA scheduler tries them in that order and
 * places a CTA of the first one some SM can take, so a launch that fits nowhere does not block a
 * smaller one behind it.
 *   oldest       submission order (GPGPU-Sim's default)
 *   round_robin  start after the launch served last, so co-running launches alternate
 * Later policies (CCBP's CTA combinations, preemption-aware selection) plug in here.
 */
#ifndef HD_KERNEL_SEL_H
#define HD_KERNEL_SEL_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_ksel_cand {
    uint32_t launch;   /* launch id (increasing with submission) */
    bool running;      /* has CTAs resident or finished already */
};

struct hd_ksel_ops {
    const char *name;
    /* Write the ranks of c[0..n) (indices into c) into order; returns how many to try. */
    unsigned (*rank)(void *impl, const struct hd_ksel_cand *c, unsigned n, uint32_t *order);
    void (*served)(void *impl, uint32_t launch);
    void (*destroy)(void *impl);
};

struct hd_ksel {
    const struct hd_ksel_ops *ops;
    void *impl;
};

int hd_ksel_create(enum hd_cfg_ksel kind, struct hd_ksel *out);

#endif
