/* SPDX-License-Identifier: MIT
 * haws_mech.c - HAWS, hint-assisted warp scheduling (Gong thesis ch. 5, issue 30;
 * docs/blocks/haws.md): the registry entry. With [haws] enable = true, attach() returns a hook
 * whose `ahead` callback gives the SMs' run-ahead engine (model/timing/sm_ahead.c) its hint
 * source: the hint pass (haws_hints.c) run once per kernel image and cached for the run.
 *
 * Design: the cache is a list keyed by kernel image and renaming budget (the budget depends on
 * the kernel's registers per thread, fixed per image); windows are looked up per stall point.
 * Normal-mode scheduling stays [sm] scheduler (GTO, LRR, ...): hint mode only fills issue slots
 * that policy left idle. [haws] wpe = true makes the same machinery warped pre-execution (Kim et
 * al., HPCA'16, the thesis's closest competitor, Appendix A): the independent instructions are
 * found by the hardware, which fetches and decodes each instruction after the stall point (one
 * per cycle: ahead.h scan_cycles) instead of jumping along hint offsets; which instructions are
 * independent is taken from the same pass (a dynamic check along the one path taken could find
 * a few more where the pass joins paths: not modelled), renaming is not limited by the kernel's
 * free registers, and there is no hint fetch cost. With [haws] blocks = true the hook also puts
 * each warp's result collection unit and rename table in the loop (haws_loop.h): the engine's
 * RCU events step them and its RCU decisions are taken from them.
 */
#include "haws_hints.h"
#include "haws_loop.h"
#include "mech.h"

#include <stdio.h>
#include <stdlib.h>

struct haws_cache {
    struct hd_haws_kernel_hints *kh;
    struct haws_cache *next;
};

struct haws {
    struct hd_ahead_ops ops;
    struct hd_haws_hint_params p;
    struct haws_cache *cache;
    bool wpe;
    struct hd_haws_loop *loop; /* the blocks in the loop ([haws] blocks), or NULL */
};

static const struct hd_ahead_hints *haws_hints(void *impl, const struct hd_func_kernel *k,
                                               const struct hd_annot *an, uint32_t regs_free,
                                               uint32_t pc)
{
    struct haws *h = impl;
    (void)an;
    if (h->wpe) /* warped pre-execution: its own result buffer, no register budget */
        regs_free = h->p.rcu_depth;
    struct haws_cache *c = h->cache;
    while (c && !(c->kh->k == k && c->kh->p.regs_free == regs_free))
        c = c->next;
    if (!c) {
        struct hd_haws_hint_params p = h->p;
        p.regs_free = regs_free;
        c = calloc(1, sizeof *c);
        if (!c)
            return NULL; /* no hints: the kernel runs in order */
        c->kh = hd_haws_hints_build(k, &p);
        if (!c->kh) {
            free(c);
            return NULL;
        }
        c->next = h->cache;
        h->cache = c;
    }
    return hd_haws_hints_at(c->kh, pc);
}

static const struct hd_ahead_ops *haws_ahead(void *impl)
{
    return &((struct haws *)impl)->ops;
}

/* {==== The blocks in the loop ==== */
static void haws_event(void *impl, uint32_t sm, uint32_t slot, const struct hd_ahead_event *e,
                       uint64_t now)
{
    hd_haws_loop_event(((struct haws *)impl)->loop, sm, slot, e, now);
}

static void haws_rcu(void *impl, uint32_t sm, uint32_t slot, struct hd_ahead_rcu_view *v,
                     uint64_t now)
{
    hd_haws_loop_rcu(((struct haws *)impl)->loop, sm, slot, v, now);
}

static void haws_raw(void *impl, uint32_t sm, uint32_t slot, const int32_t *src, unsigned n,
                     uint32_t *mapped, uint32_t *ready, uint64_t now)
{
    hd_haws_loop_raw(((struct haws *)impl)->loop, sm, slot, src, n, mapped, ready, now);
}

static void haws_ctl(void *impl, uint32_t sm, uint32_t slot, struct hd_ahead_ctl_view *v,
                     uint64_t now)
{
    hd_haws_loop_ctl(((struct haws *)impl)->loop, sm, slot, v, now);
}

static void haws_filter(void *impl, uint32_t sm, uint32_t slot, struct hd_ahead_filter_req *f,
                        uint64_t now)
{
    hd_haws_loop_filter(((struct haws *)impl)->loop, sm, slot, f, now);
}

static void haws_top(void *impl, uint32_t sm, uint32_t slot, uint32_t adv, struct hd_ahead_top *t,
                     uint64_t now)
{
    hd_haws_loop_top(((struct haws *)impl)->loop, sm, slot, adv, t, now);
}

static int haws_start(void *impl, char *err, size_t errlen)
{
    return hd_haws_loop_make(((struct haws *)impl)->loop, err, errlen);
}

static int haws_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err,
                      size_t errlen)
{
    *ready = *busy = false;
    return hd_haws_loop_cycle(((struct haws *)impl)->loop, now, err, errlen);
}
/* }==== */

static void haws_destroy(void *impl)
{
    struct haws *h = impl;
    hd_haws_loop_destroy(h->loop);
    while (h->cache) {
        struct haws_cache *n = h->cache->next;
        hd_haws_hints_free(h->cache->kh);
        free(h->cache);
        h->cache = n;
    }
    free(h);
}

static const struct hd_hook_ops haws_hook_ops = {
    .name = "haws",
    .destroy = haws_destroy,
    .ahead = haws_ahead,
};
static const struct hd_hook_ops haws_hook_blocks = {
    .name = "haws",
    .start = haws_start,
    .cycle = haws_cycle,
    .destroy = haws_destroy,
    .ahead = haws_ahead,
};

static int haws_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                       size_t errlen)
{
    out->ops = NULL;
    out->impl = NULL;
    if (!env->p->haws.enable) {
        if (env->p->haws.blocks) {
            snprintf(err, errlen, "key 'blocks': [haws] blocks = true needs [haws] enable = true "
                     "(the run-ahead engine whose RCU the blocks are)");
            return -1;
        }
        return 0;
    }
    struct haws *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "[haws]: host out of memory");
        return -1;
    }
    h->p.window = env->p->haws.window;
    h->p.rcu_depth = env->p->haws.rcu_depth;
    h->p.loads = env->p->haws.loads;
    h->p.back_edges = env->p->haws.back_edges;
    h->ops.hints = haws_hints;
    h->ops.rcu_depth = env->p->haws.rcu_depth;
    h->ops.hint_fetch_cycles = env->p->haws.wpe ? 0 : env->p->haws.hint_fetch_cycles;
    h->wpe = env->p->haws.wpe;
    h->ops.scan_cycles = h->wpe ? 1 : 0;
    if (env->p->haws.blocks) {
        if (!(h->loop = hd_haws_loop_create(env->p, env->hw, err, errlen))) {
            haws_destroy(h);
            return -1;
        }
        h->ops.event = haws_event;
        h->ops.rcu = haws_rcu;
        h->ops.raw = haws_raw;
        h->ops.ctl = haws_ctl;
        h->ops.filter = haws_filter;
        h->ops.top = haws_top;
    }
    out->ops = h->loop ? &haws_hook_blocks : &haws_hook_ops;
    out->impl = h;
    return 0;
}

const struct hd_mech hd_mech_haws = {
    .name = "haws",
    .source = "Gong, Hint-Assisted Scheduling on Modern GPUs (thesis, 2020), ch. 5 (HAWS)",
    .attach = haws_attach,
};
