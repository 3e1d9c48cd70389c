/* SPDX-License-Identifier: MIT
 * hw_ref.c - the default block factory: instances that run a block's C reference (hw_ref.h).
 * The registry table itself (hd_hw_ref_blocks_) is generated into the build directory by
 * model/hw/hw_blocks.cmake.
 */
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Generated (hd_hw_blocks.c): every block of rtl/ with its C reference, in name order. */
extern const struct hd_hw_ref_block hd_hw_ref_blocks_[];
extern const unsigned hd_hw_ref_nblocks_;
/* Generated too: the [block] loop_configs instance kinds "BLOCK:CONFIG". */
extern const struct hd_hw_ref_block hd_hw_ref_configs_[];
extern const unsigned hd_hw_ref_nconfigs_;

unsigned hd_hw_ref_count(void)
{
    return hd_hw_ref_nblocks_;
}

const struct hd_hw_ref_block *hd_hw_ref_at(unsigned i)
{
    return i < hd_hw_ref_nblocks_ ? &hd_hw_ref_blocks_[i] : NULL;
}

const struct hd_hw_ref_block *hd_hw_ref_find(const char *name)
{
    for (unsigned i = 0; i < hd_hw_ref_nblocks_; i++)
        if (strcmp(hd_hw_ref_blocks_[i].b->name, name) == 0)
            return &hd_hw_ref_blocks_[i];
    for (unsigned i = 0; i < hd_hw_ref_nconfigs_; i++)
        if (strcmp(hd_hw_ref_configs_[i].name, name) == 0)
            return &hd_hw_ref_configs_[i];
    return NULL;
}

void hd_hw_ref_names(char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (unsigned i = 0; i < hd_hw_ref_nblocks_ && at < len; i++) {
        int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", hd_hw_ref_blocks_[i].b->name);
        if (n < 0)
            break;
        at += (size_t)n;
    }
}

/* A C-reference instance. */
struct ref_inst {
    const struct hd_hw_ref_block *r;
    void *state;
};

static void ref_reset(void *impl)
{
    struct ref_inst *x = impl;
    x->r->reset(x->state);
}

static int ref_step(void *impl, const void *in, void *out, uint64_t now)
{
    struct ref_inst *x = impl;
    (void)now;
    x->r->step(x->state, in, out);
    return 0;
}

static bool ref_idle(const void *impl, const void *in)
{
    const struct ref_inst *x = impl;
    return x->r->idle(x->state, in);
}

static const char *ref_error(const void *impl)
{
    (void)impl;
    return "";
}

static void ref_destroy(void *impl)
{
    struct ref_inst *x = impl;
    free(x->state);
    free(x);
}

static const struct hd_hw_inst_ops ref_ops = {ref_reset, ref_step, ref_idle, ref_error, NULL,
                                              ref_destroy};

static int ref_make(void *ctx, const char *block, const char *inst_name, struct hd_hw_inst *out,
                    char *err, size_t errlen)
{
    (void)ctx;
    const struct hd_hw_ref_block *r = hd_hw_ref_find(block);
    if (!r) {
        char names[512];
        hd_hw_ref_names(names, sizeof names);
        snprintf(err, errlen, "%s: no hardware block '%s' (blocks: %s)", inst_name, block, names);
        return -1;
    }
    struct ref_inst *x = calloc(1, sizeof *x);
    void *state = x ? calloc(1, r->state_size) : NULL;
    if (!state) {
        free(x);
        snprintf(err, errlen, "%s: out of memory", inst_name);
        return -1;
    }
    x->r = r;
    x->state = state;
    r->reset(state);
    out->b = r->b;
    out->ops = &ref_ops;
    out->impl = x;
    return 0;
}

static const struct hd_hw_factory ref_factory = {NULL, ref_make};

const struct hd_hw_factory *hd_hw_ref_factory(void)
{
    return &ref_factory;
}
