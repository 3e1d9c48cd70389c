/* SPDX-License-Identifier: MIT
 * cosim_hw.c - co-simulated block instances behind the hardware-block interface (cosim_hw.h).
 */
#include "cosim_hw.h"

#include "cosim_fst.h"
#include "cosim_inst.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct inst {
    struct hd_cosim_hw *h;
    struct hd_cosim_inst x;
    struct hd_cosim_tag tag;
    int fst;                 /* index in h->fst, -1: none */
    char err[1600];
};

struct hd_cosim_hw {
    struct hd_cosim_hw_opts o;
    struct hd_hw_factory f;
    struct hd_cosim_fst *fst;
    struct hd_cosim_hw_stats st;
    struct hd_cover_sum *cov; /* opts.coverage: sums of the instances destroyed */
    char fail_path[512];
    char internal_seen[1024]; /* "a,b" the blocks dumped with internal signals */
};

static void i_reset(void *impl)
{
    struct inst *n = impl;
    n->x.ref->reset(n->x.ref_state);
    if (n->x.rtl)
        n->x.rtl->reset(n->x.rtl_h);
    if (n->x.cov)
        hd_cover_reset(n->x.cov);
}

/* A failure: the records, and the FST window of the instance's last steps. */
static void fail(struct inst *n, uint64_t now)
{
    const char *path = n->h->o.fail_fst ? n->h->o.fail_fst : "cosim-mismatch.fst";
    struct hd_cosim_inst *xs[1] = {&n->x};
    int rc = hd_cosim_fst_dump_history(path, xs, 1, n->h->o.window ? n->h->o.window : 64, now);
    snprintf(n->err, sizeof n->err, "%sFST window %s%s", n->x.errors ? n->x.errors : "", path,
             rc == 0 ? " (+ .gtkw)" : " could not be written");
    n->h->st.failures++;
}

static int i_step(void *impl, const void *in, void *out, uint64_t now)
{
    struct inst *n = impl;
    struct hd_cosim_hw *h = n->h;
    n->tag.now = now;
    n->tag.valid = true;
    bool ok = hd_cosim_step(&n->x, in, out, now, &n->tag);
    h->st.steps++;
    if (n->x.rtl)
        h->st.rtl_steps++;
    if (h->fst && n->fst >= 0 && now >= h->o.win_a && now <= h->o.win_b) {
        const void *hin, *hro, *hto;
        const struct hd_cosim_tag *ht;
        uint64_t hg;
        if (hd_cosim_hist(&n->x, 0, &hin, &hro, &hto, &ht, &hg))
            hd_cosim_fst_cycle(h->fst, n->fst, hg, hin, hro, hto, ht);
    }
    if (ok)
        return 0;
    fail(n, now);
    return -1;
}

static bool i_idle(const void *impl, const void *in)
{
    const struct inst *n = impl;
    /* The reference's idle test stands for both sides: they are compared every step. */
    return n->x.ref->idle(n->x.ref_state, in);
}

static const char *i_error(const void *impl)
{
    const struct inst *n = impl;
    return n->err;
}

static void i_set_tag(void *impl, const uint64_t *fields, unsigned k)
{
    struct inst *n = impl;
    for (unsigned t = 0; t < HD_BLOCK_MAX_TAGS; t++)
        n->tag.f[t] = t < k ? fields[t] : 0;
}

static void i_destroy(void *impl)
{
    struct inst *n = impl;
    if (n->x.cov && n->h->cov && hd_cover_sum_add(n->h->cov, n->x.cov) != 0)
        fprintf(stderr, "cosim: out of memory summing the coverage of %s\n", n->x.name);
    hd_cosim_inst_free(&n->x);
    free(n);
}

static const struct hd_hw_inst_ops inst_ops = {i_reset, i_step, i_idle, i_error, i_set_tag,
                                               i_destroy};

static int make(void *ctx, const char *block, const char *inst_name, struct hd_hw_inst *out,
                char *err, size_t errlen)
{
    struct hd_cosim_hw *h = ctx;
    const struct hd_hw_ref_block *r = hd_hw_ref_find(block);
    if (!r) {
        char names[512];
        hd_hw_ref_names(names, sizeof names);
        snprintf(err, errlen, "%s: no hardware block '%s' (blocks: %s)", inst_name, block, names);
        return -1;
    }
    unsigned sm = 0;
    bool on = h->o.rtl && (h->o.sm_all || (sscanf(inst_name, "sm%u.", &sm) == 1 &&
                                           sm < HD_COSIM_HW_MAX_SMS && h->o.sms[sm]));
    /* --fst-internal: this block's RTL instances run the model with public internal signals */
    bool internal = on && h->fst && hd_cosim_fst_names(h->o.fst_internal, block);
    const struct hd_cosim_rtl_ops *rtl =
        internal ? hd_cosim_rtl_find_internal(block) : on ? hd_cosim_rtl_find(block) : NULL;
    if (on && !rtl) {
        snprintf(err, errlen, "%s: this build has no RTL model of %s (%s)", inst_name, block,
                 hd_cosim_rtl_kind());
        return -1;
    }
    struct inst *n = calloc(1, sizeof *n);
    if (!n || hd_cosim_inst_init(&n->x, inst_name, r, rtl, h->o.drive_rtl,
                                 (h->o.window ? h->o.window : 64) + 2, h->o.plusargs) != 0) {
        if (n)
            hd_cosim_inst_free(&n->x);
        free(n);
        snprintf(err, errlen, "%s: out of memory (or the RTL model could not be created)",
                 inst_name);
        return -1;
    }
    n->h = h;
    n->fst = -1;
    if (h->cov && hd_cosim_inst_cover(&n->x) != 0) {
        i_destroy(n);
        snprintf(err, errlen, "%s: --coverage: block %s declares no coverage bins (rtl/%s/%s_cover.def)",
                 inst_name, block, block, block);
        return -1;
    }
    if (h->fst && (n->fst = internal ? hd_cosim_fst_add_internal(h->fst, &n->x)
                                     : hd_cosim_fst_add(h->fst, &n->x)) < 0) {
        i_destroy(n);
        snprintf(err, errlen, "%s: cannot add the instance to the FST (out of memory)", inst_name);
        return -1;
    }
    if (internal && !hd_cosim_fst_names(h->internal_seen, block)) {
        size_t len = strlen(h->internal_seen);
        snprintf(h->internal_seen + len, sizeof h->internal_seen - len, "%s%s", len ? "," : "",
                 block);
    }
    h->st.instances++;
    h->st.rtl_instances += rtl ? 1u : 0u;
    out->b = r->b;
    out->ops = &inst_ops;
    out->impl = n;
    return 0;
}

struct hd_cosim_hw *hd_cosim_hw_create(const struct hd_cosim_hw_opts *o, char *err, size_t errlen)
{
    struct hd_cosim_hw *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "cosim: out of memory");
        return NULL;
    }
    h->o = *o;
    h->f.ctx = h;
    h->f.make = make;
    if (o->coverage && !(h->cov = hd_cover_sum_create())) {
        snprintf(err, errlen, "cosim: out of memory");
        free(h);
        return NULL;
    }
    if (o->fst_path && !(h->fst = hd_cosim_fst_open(o->fst_path))) {
        snprintf(err, errlen, "cosim: --fst %s: cannot create the file", o->fst_path);
        free(h);
        return NULL;
    }
    return h;
}

const struct hd_hw_factory *hd_cosim_hw_factory(struct hd_cosim_hw *h)
{
    return &h->f;
}

const struct hd_cosim_hw_stats *hd_cosim_hw_stats(const struct hd_cosim_hw *h)
{
    return &h->st;
}

int hd_cosim_hw_finish(struct hd_cosim_hw *h, char *err, size_t errlen)
{
    if (!h->fst)
        return 0;
    char gtkw[600];
    snprintf(gtkw, sizeof gtkw, "%s", h->o.fst_path);
    size_t len = strlen(gtkw);
    if (len > 4 && strcmp(gtkw + len - 4, ".fst") == 0)
        gtkw[len - 4] = '\0';
    strncat(gtkw, ".gtkw", sizeof gtkw - strlen(gtkw) - 1);
    int rc = hd_cosim_fst_close(h->fst, gtkw, UINT64_MAX);
    h->fst = NULL;
    if (rc != 0) {
        snprintf(err, errlen, "cosim: cannot write %s", gtkw);
        return rc;
    }
    /* every block named by --fst-internal had its internal signals dumped */
    const char *list = h->o.fst_internal;
    if (list && strcmp(list, "all") == 0 && !h->internal_seen[0]) {
        snprintf(err, errlen, "cosim: --fst-internal all: no block instance ran against the RTL, "
                              "so %s holds no internal signal", h->o.fst_path);
        return -1;
    }
    for (const char *p = list && strcmp(list, "all") != 0 ? list : ""; *p;) {
        const char *e = strchr(p, ',');
        int n = e ? (int)(e - p) : (int)strlen(p);
        char b[80];
        snprintf(b, sizeof b, "%.*s", n, p);
        if (!hd_cosim_fst_names(h->internal_seen, b)) {
            snprintf(err, errlen, "cosim: --fst-internal %s: no instance of it ran against the "
                                  "RTL in this run (blocks with internal signals: %s), so %s "
                                  "lacks them", b, h->internal_seen[0] ? h->internal_seen : "none",
                     h->o.fst_path);
            return -1;
        }
        p = e ? e + 1 : p + n;
    }
    return 0;
}

void hd_cosim_hw_destroy(struct hd_cosim_hw *h)
{
    if (!h)
        return;
    if (h->fst)
        hd_cosim_fst_close(h->fst, NULL, UINT64_MAX);
    hd_cover_sum_destroy(h->cov);
    free(h);
}

const struct hd_cover_sum *hd_cosim_hw_coverage(const struct hd_cosim_hw *h)
{
    return h->cov;
}
