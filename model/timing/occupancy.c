/* SPDX-License-Identifier: MIT
 * occupancy.c - CTAs per SM, resident warps and the limiting resource of a kernel.
 *
 * Design: see occupancy.h. Pure integer arithmetic on 64-bit quantities (a CTA's registers or
 * shared bytes can exceed 32 bits only in absurd configurations, but nothing here can overflow:
 * each product is at most 2^32 x 2^32 bounded by the config ranges). The per-resource limits are
 * computed independently, then the minimum is taken; every resource reaching the minimum is in
 * limit_mask, and `limit` is the first of them in enum order (registers, shared, threads, CTA
 * slots, local memory), the order in which a kernel writer would usually act on them.
 */
#include "occupancy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int hd_occupancy_local(const struct hd_occ_params *p, uint64_t local_per_thread,
                              struct hd_occupancy *o);

static const char *const limit_names[HD_OCC_LIMIT_COUNT] = {
    "registers", "shared memory", "threads", "CTA slots", "local memory", "does not fit"};

const char *hd_occ_limit_name(enum hd_occ_limit l)
{
    return (unsigned)l < HD_OCC_LIMIT_COUNT ? limit_names[l] : "?";
}

void hd_occ_params_from_config(const struct hd_config *cfg, struct hd_occ_params *p)
{
    memset(p, 0, sizeof *p);
    p->warp_size = cfg->gpu_warp_size;
    p->max_threads = cfg->sm_max_threads;
    p->max_warps = cfg->gpu_warp_size ? cfg->sm_max_threads / cfg->gpu_warp_size : 0;
    p->max_ctas = cfg->sm_max_ctas;
    p->registers = cfg->sm_registers;
    p->max_regs_per_thread = cfg->sm_max_regs_per_thread;
    p->shared_bytes = cfg->sm_shared_mem_bytes;
    p->reg_alloc_unit = cfg->sm_reg_alloc_unit;
    p->smem_alloc_unit = cfg->sm_smem_alloc_unit;
    p->local_bytes = cfg->gpu_num_sms ? ((uint64_t)cfg->gpu_global_mem_mb << 20) / cfg->gpu_num_sms
                                      : 0;
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
    if (unit <= 1)
        return v;
    return (v + unit - 1) / unit * unit;
}

/* The resources one CTA holds while resident (the allocation the SM makes for it), with
 * k->regs_per_thread capped at p->max_regs_per_thread. */
static void hd_occ_cta_demand(const struct hd_occ_params *p, const struct hd_occ_kernel *k,
                              struct hd_occ_demand *d)
{
    uint32_t ws = p->warp_size ? p->warp_size : 32;
    d->warps = (uint32_t)(((uint64_t)k->threads_per_cta + ws - 1) / ws);
    d->threads = d->warps * ws;
    uint32_t r = k->regs_per_thread;
    if (p->max_regs_per_thread && r > p->max_regs_per_thread)
        r = p->max_regs_per_thread;
    d->regs_per_warp = (uint32_t)round_up((uint64_t)r * ws, p->reg_alloc_unit);
    d->regs = (uint64_t)d->warps * d->regs_per_warp;
    d->smem = round_up(k->smem_static + k->smem_dynamic, p->smem_alloc_unit);
}

static int no_fit(struct hd_occupancy *o, enum hd_occ_nofit why, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int no_fit(struct hd_occupancy *o, enum hd_occ_nofit why, const char *fmt, ...)
{
    o->ctas = o->warps = o->threads = 0;
    o->occupancy = 0.0;
    o->limit = HD_OCC_NOFIT;
    o->limit_mask = 1u << HD_OCC_NOFIT;
    o->nofit = why;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->reason, sizeof o->reason, fmt, ap);
    va_end(ap);
    return -1;
}

/* CTAs that `cap` units of a resource hold at `need` units each. */
static uint32_t fit(uint64_t cap, uint64_t need)
{
    if (need == 0)
        return HD_OCC_UNLIMITED;
    uint64_t n = cap / need;
    return n >= HD_OCC_UNLIMITED ? HD_OCC_UNLIMITED - 1 : (uint32_t)n;
}

static int pick(const struct hd_occ_params *p, uint32_t threads_per_cta, struct hd_occupancy *o);

int hd_occupancy_compute(const struct hd_occ_params *p, const struct hd_occ_kernel *k,
                         struct hd_occupancy *o)
{
    memset(o, 0, sizeof *o);
    hd_occ_cta_demand(p, k, &o->demand);
    const struct hd_occ_demand *d = &o->demand;
    o->regs_clamped = p->max_regs_per_thread && k->regs_per_thread > p->max_regs_per_thread;
    o->regs_per_thread = o->regs_clamped ? p->max_regs_per_thread : k->regs_per_thread;
    o->by[HD_OCC_REGISTERS] = fit(p->registers, d->regs);
    o->by[HD_OCC_SHARED] = fit(p->shared_bytes, d->smem);
    o->by[HD_OCC_THREADS] = fit(p->max_warps, d->warps);
    o->by[HD_OCC_CTA_SLOTS] = p->max_ctas;
    o->by[HD_OCC_LOCAL] = HD_OCC_UNLIMITED; /* hd_occupancy_local */

    if (k->threads_per_cta == 0)
        return no_fit(o, HD_OCC_NO_THREADS, "a CTA of 0 threads");
    if (o->by[HD_OCC_THREADS] == 0)
        return no_fit(o, HD_OCC_CTA_TOO_MANY_THREADS,
                      "a CTA of %u threads (%u warps) exceeds the SM's %u threads (%u warp slots)",
                      k->threads_per_cta, d->warps, p->max_threads, p->max_warps);
    if (o->by[HD_OCC_REGISTERS] == 0)
        return no_fit(o, HD_OCC_CTA_TOO_MANY_REGS,
                      "one CTA needs %llu registers (%u warps x %u), the SM has %u",
                      (unsigned long long)d->regs, d->warps, d->regs_per_warp, p->registers);
    if (o->by[HD_OCC_SHARED] == 0)
        return no_fit(o, HD_OCC_CTA_TOO_MUCH_SHARED,
                      "one CTA needs %llu bytes of shared memory, the SM has %llu",
                      (unsigned long long)d->smem, (unsigned long long)p->shared_bytes);
    return pick(p, k->threads_per_cta, o);
}

/* The minimum of by[], the limiting resources and the resident warps. */
static int pick(const struct hd_occ_params *p, uint32_t threads_per_cta, struct hd_occupancy *o)
{
    const struct hd_occ_demand *d = &o->demand;
    uint32_t best = HD_OCC_UNLIMITED;
    for (int r = 0; r < HD_OCC_NOFIT; r++)
        best = o->by[r] < best ? o->by[r] : best;
    o->ctas = best;
    o->limit = HD_OCC_NOFIT;
    for (int r = HD_OCC_NOFIT - 1; r >= 0; r--) {
        if (o->by[r] == best) {
            o->limit_mask |= 1u << r;
            o->limit = (enum hd_occ_limit)r;
        }
    }
    o->warps = best * d->warps;
    o->threads = best * threads_per_cta;
    o->occupancy = p->max_warps ? (double)o->warps / (double)p->max_warps : 0.0;
    o->nofit = HD_OCC_FITS;
    o->reason[0] = '\0';
    return 0;
}

/* Count `local_per_thread` bytes of local memory (.local variables, register spills) per thread
 * in an occupancy computed by hd_occupancy_compute for the same p and kernel: the CTAs per SM,
 * the limit and "does not fit" are recomputed. Returns 0 when at least one CTA fits, else -1. */
static int hd_occupancy_local(const struct hd_occ_params *p, uint64_t local_per_thread,
                              struct hd_occupancy *o)
{
    struct hd_occ_demand *d = &o->demand;
    d->local = local_per_thread && d->threads > UINT64_MAX / local_per_thread
                   ? UINT64_MAX /* saturates: never fits */
                   : local_per_thread * d->threads;
    if (o->limit == HD_OCC_NOFIT) /* already does not fit for another reason */
        return -1;
    o->by[HD_OCC_LOCAL] = fit(p->local_bytes, d->local);
    if (o->by[HD_OCC_LOCAL] == 0)
        return no_fit(o, HD_OCC_CTA_TOO_MUCH_LOCAL,
                      "one CTA needs %llu bytes of local memory, an SM's share of device memory "
                      "is %llu", (unsigned long long)d->local, (unsigned long long)p->local_bytes);
    o->limit_mask = 0;
    return pick(p, o->threads / (o->ctas ? o->ctas : 1), o);
}

uint64_t hd_occ_local_per_thread(uint64_t frame_bytes, uint32_t spill_words)
{
    uint64_t spill = 4ull * spill_words;
    return frame_bytes > UINT64_MAX - spill ? UINT64_MAX : frame_bytes + spill;
}

int hd_occupancy_kernel(const struct hd_occ_params *p, const struct hd_occ_kernel *k,
                        uint64_t local_per_thread, struct hd_occupancy *o)
{
    if (hd_occupancy_compute(p, k, o) != 0) {
        hd_occupancy_local(p, local_per_thread, o); /* demand.local still reported */
        return -1;
    }
    return hd_occupancy_local(p, local_per_thread, o);
}

const char *hd_occ_limit_string(const struct hd_occupancy *o, char *buf, size_t len)
{
    if (!len)
        return buf;
    buf[0] = '\0';
    if (o->limit == HD_OCC_NOFIT) {
        snprintf(buf, len, "does not fit: %s", o->reason);
        return buf;
    }
    size_t used = 0;
    for (int r = 0; r < HD_OCC_NOFIT; r++) {
        if (!(o->limit_mask & (1u << r)))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", limit_names[r]);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
    return buf;
}
