/* SPDX-License-Identifier: MIT
 * hw_inst.h - an instance of a hardware block as the timing model sees it: reset, one step on
 * the model clock, an idle test and a failure message, behind an ops struct; and the factory
 * that makes instances by block name (review 2026-11 §4.3 (4), issue 11 item 6).
 *
 * Design: the timing model owns instances (one per SM and per use, e.g. the context codec's
 * compressor and decompressor) but never knows what stands behind them. The default factory
 * (hw_ref.h) builds the C references of compressors/ and tables/; cosim/ wraps the same
 * reference with the Verilated RTL and the port-by-port comparison (cosim_hw.h), so a
 * mechanism steps its blocks on the model clock and the co-simulation needs no observer.
 * Contract of a step: `out` = the block's outputs during cycle `now`, then the rising edge takes
 * `in` (the C references' step). Idle contract (bounded cost as blocks multiply): when
 * idle(impl, in) is true, a step with `in` would leave the state unchanged and give all-zero
 * outputs, so the owner may skip it; an instance with work pending keeps its SM awake (the
 * owner reports it busy to the GPU's idle-cycle skipping). `now` only has to increase between
 * the steps of one instance (skipped cycles are allowed). A step returns 0, or -1 when the
 * instance failed (a co-simulation mismatch, an assertion): error() then says where.
 * Immutable tables only; instances are plain values the owner keeps.
 */
#ifndef HD_HW_INST_H
#define HD_HW_INST_H

#include "hd_block.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct hd_hw_inst_ops {
    void (*reset)(void *impl);
    int (*step)(void *impl, const void *in, void *out, uint64_t now);
    bool (*idle)(const void *impl, const void *in);
    /* The failure of the last failing step ("" if none): block, instance, cycle, port or
     * assertion. */
    const char *(*error)(const void *impl);
    /* Optional (NULL: ignored): the model-side fields (the block's HD_TAG rows, in order) of
     * the next steps, shown in waveforms and mismatch reports. */
    void (*set_tag)(void *impl, const uint64_t *fields, unsigned n);
    void (*destroy)(void *impl);
};

struct hd_hw_inst {
    const struct hd_block_desc *b; /* its ports (in/out struct sizes and layout) */
    const struct hd_hw_inst_ops *ops;
    void *impl;
};

/* Makes instance `inst_name` (e.g. "sm3.regpat_comp") of block `block`. Returns 0, or -1 with
 * a message (unknown block, no memory, RTL missing). */
struct hd_hw_factory {
    void *ctx;
    int (*make)(void *ctx, const char *block, const char *inst_name, struct hd_hw_inst *out,
                char *err, size_t errlen);
};

static inline int hd_hw_make(const struct hd_hw_factory *f, const char *block,
                             const char *inst_name, struct hd_hw_inst *out, char *err,
                             size_t errlen)
{
    return f->make(f->ctx, block, inst_name, out, err, errlen);
}

static inline int hd_hw_step(struct hd_hw_inst *x, const void *in, void *out, uint64_t now)
{
    return x->ops->step(x->impl, in, out, now);
}

static inline bool hd_hw_idle(const struct hd_hw_inst *x, const void *in)
{
    return x->ops->idle(x->impl, in);
}

static inline void hd_hw_set_tag(struct hd_hw_inst *x, const uint64_t *fields, unsigned n)
{
    if (x->ops->set_tag)
        x->ops->set_tag(x->impl, fields, n);
}

/* Destroy (a zeroed instance is fine) and zero it. */
static inline void hd_hw_destroy(struct hd_hw_inst *x)
{
    if (x->ops && x->impl)
        x->ops->destroy(x->impl);
    x->b = NULL;
    x->ops = NULL;
    x->impl = NULL;
}

/* hd_hw_make, then a check that the block made has the port structs the caller steps it with
 * (`in_size`, `out_size` bytes: sizeof its hd_<block>_in / _out): a factory that returns another
 * block's ports under this name is refused (destroyed, zeroed) with a message naming the instance. */
static inline int hd_hw_make_sized(const struct hd_hw_factory *f, const char *block,
                                   const char *inst_name, struct hd_hw_inst *out, size_t in_size,
                                   size_t out_size, char *err, size_t errlen)
{
    if (hd_hw_make(f, block, inst_name, out, err, errlen) != 0)
        return -1;
    if (out->b->in_size != in_size || out->b->out_size != out_size) {
        snprintf(err, errlen, "%s: the factory's block has other ports than %s", inst_name, block);
        hd_hw_destroy(out);
        return -1;
    }
    return 0;
}

#endif
