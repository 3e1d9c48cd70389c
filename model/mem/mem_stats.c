/* SPDX-License-Identifier: MIT
 * mem_stats.c - counter records, kernel indices, histograms and the duplicate-MSHR monitor
 * (see mem_stats.h).
 */
#include "mem_stats.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* {==== Counter records ==== */
static const struct hd_memstat_desc acct_desc[] = {
#define HD_MEMSTAT(name, doc) {#name, doc, offsetof(struct hd_mem_acct, name)},
#include "mem_stats.def"
#undef HD_MEMSTAT
};

const struct hd_memstat_desc *hd_mem_acct_desc(unsigned *n)
{
    *n = sizeof acct_desc / sizeof acct_desc[0];
    return acct_desc;
}

static void hd_mem_acct_add(struct hd_mem_acct *to, const struct hd_mem_acct *from)
{
#define HD_MEMSTAT(name, doc) to->name += from->name;
#include "mem_stats.def"
#undef HD_MEMSTAT
}
/* }==== */

/* {==== Histograms ==== */
static unsigned bucket_of(uint64_t v)
{
    if (v < 8)
        return (unsigned)v;
    unsigned e = 63 - (unsigned)__builtin_clzll(v); /* >= 3 */
    unsigned sub = (unsigned)(v >> (e - 2)) & 3u;
    unsigned b = 8 + (e - 3) * 4 + sub;
    return b < HD_HIST_BUCKETS ? b : HD_HIST_BUCKETS - 1;
}

void hd_hist_bounds(unsigned i, uint64_t *lo, uint64_t *hi)
{
    if (i < 8) {
        *lo = *hi = i;
        return;
    }
    unsigned e = (i - 8) / 4 + 3, sub = (i - 8) % 4;
    *lo = (4ull + sub) << (e - 2);
    *hi = ((5ull + sub) << (e - 2)) - 1;
}

void hd_hist_add(struct hd_hist *h, uint64_t v)
{
    if (h->n == 0 || v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
    h->n++;
    h->sum += v;
    h->b[bucket_of(v)]++;
}

uint64_t hd_hist_quantile(const struct hd_hist *h, double q)
{
    if (!h->n)
        return 0;
    uint64_t want = (uint64_t)(q * (double)h->n), seen = 0;
    for (unsigned i = 0; i < HD_HIST_BUCKETS; i++) {
        seen += h->b[i];
        if (seen > want || seen == h->n) {
            uint64_t lo, hi;
            hd_hist_bounds(i, &lo, &hi);
            return hi < h->max ? hi : h->max;
        }
    }
    return h->max;
}

const char *hd_mem_hist_name(enum hd_mem_hist h)
{
    static const char *const names[HD_HIST_COUNT] = {
        "read_l1", "read_l2", "read_dram", "write", "icnt_request", "icnt_reply", "dram_service"};
    return (unsigned)h < HD_HIST_COUNT ? names[h] : "?";
}
/* }==== */

/* {==== Setup ==== */
int hd_mem_stats_init(struct hd_mem_stats *s, uint32_t num_sms, uint32_t nslices,
                      uint32_t nchannels, uint32_t dup_window)
{
    memset(s, 0, sizeof *s);
    s->num_sms = num_sms;
    s->nslices = nslices;
    s->nchannels = nchannels;
    s->dup_window = dup_window;
    s->sm = calloc(num_sms, sizeof *s->sm);
    s->slice = calloc(nslices, sizeof *s->slice);
    s->channel = calloc(nchannels, sizeof *s->channel);
    s->xbar_req_busy = calloc(nslices, sizeof *s->xbar_req_busy);
    s->xbar_rep_busy = calloc(num_sms, sizeof *s->xbar_rep_busy);
    s->dram_data_cycles = calloc(nchannels, sizeof *s->dram_data_cycles);
    s->dram_acts = calloc(nchannels, sizeof *s->dram_acts);
    s->dram_pres = calloc(nchannels, sizeof *s->dram_pres);
    s->dram_refs = calloc(nchannels, sizeof *s->dram_refs);
    s->kmap_cap = 64;
    s->kmap = calloc(s->kmap_cap, sizeof *s->kmap);
    s->last_kidx = UINT32_MAX;
    if (!s->sm || !s->slice || !s->channel || !s->xbar_req_busy || !s->xbar_rep_busy ||
        !s->dram_data_cycles || !s->dram_acts || !s->dram_pres || !s->dram_refs || !s->kmap) {
        hd_mem_stats_free(s);
        return -1;
    }
    hd_mem_stats_kernel(s, UINT32_MAX); /* record 0: unattributed */
    if (s->nkernels != 1) {
        hd_mem_stats_free(s);
        return -1;
    }
    return 0;
}

void hd_mem_stats_free(struct hd_mem_stats *s)
{
    free(s->sm);
    free(s->slice);
    free(s->channel);
    free(s->kernel);
    free(s->kernel_id);
    free(s->kmap);
    free(s->xbar_req_busy);
    free(s->xbar_rep_busy);
    free(s->dram_data_cycles);
    free(s->dram_acts);
    free(s->dram_pres);
    free(s->dram_refs);
    free(s->dup);
    memset(s, 0, sizeof *s);
}

void hd_mem_stats_reset(struct hd_mem_stats *s)
{
    memset(s->sm, 0, s->num_sms * sizeof *s->sm);
    memset(s->slice, 0, s->nslices * sizeof *s->slice);
    memset(s->channel, 0, s->nchannels * sizeof *s->channel);
    if (s->nkernels)
        memset(s->kernel, 0, s->nkernels * sizeof *s->kernel);
    memset(s->hist, 0, sizeof s->hist);
    memset(s->cls, 0, sizeof s->cls);
    memset(s->xbar_req_busy, 0, s->nslices * sizeof *s->xbar_req_busy);
    memset(s->xbar_rep_busy, 0, s->num_sms * sizeof *s->xbar_rep_busy);
    memset(s->dram_data_cycles, 0, s->nchannels * sizeof *s->dram_data_cycles);
    memset(s->dram_acts, 0, s->nchannels * sizeof *s->dram_acts);
    memset(s->dram_pres, 0, s->nchannels * sizeof *s->dram_pres);
    memset(s->dram_refs, 0, s->nchannels * sizeof *s->dram_refs);
    s->icnt_cycles = s->l2_cycles = s->dram_cycles = s->core_cycles = 0;
}

void hd_mem_stats_total(const struct hd_mem_stats *s, struct hd_mem_acct *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < s->num_sms; i++)
        hd_mem_acct_add(out, &s->sm[i]);
}
/* }==== */

/* {==== Kernels ==== */
static uint32_t khash(uint32_t k, uint32_t cap)
{
    return (uint32_t)(((uint64_t)k * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static int kmap_grow(struct hd_mem_stats *s)
{
    uint32_t ncap = s->kmap_cap * 2;
    uint32_t *m = calloc(ncap, sizeof *m);
    if (!m)
        return -1;
    for (uint32_t i = 0; i < s->nkernels; i++) {
        uint32_t h = khash(s->kernel_id[i], ncap);
        while (m[h])
            h = (h + 1) & (ncap - 1);
        m[h] = i + 1;
    }
    free(s->kmap);
    s->kmap = m;
    s->kmap_cap = ncap;
    return 0;
}

uint32_t hd_mem_stats_kernel(struct hd_mem_stats *s, uint32_t kernel)
{
    if (s->last_kidx != UINT32_MAX && s->last_kernel == kernel)
        return s->last_kidx;
    uint32_t h = khash(kernel, s->kmap_cap);
    while (s->kmap[h]) {
        if (s->kernel_id[s->kmap[h] - 1] == kernel) {
            s->last_kernel = kernel;
            return s->last_kidx = s->kmap[h] - 1;
        }
        h = (h + 1) & (s->kmap_cap - 1);
    }
    if (s->nkernels == s->cap_kernels) {
        uint32_t nc = s->cap_kernels ? 2 * s->cap_kernels : 16;
        struct hd_mem_acct *k = realloc(s->kernel, nc * sizeof *k);
        if (!k)
            return 0;
        s->kernel = k;
        uint32_t *id = realloc(s->kernel_id, nc * sizeof *id);
        if (!id)
            return 0;
        s->kernel_id = id;
        s->cap_kernels = nc;
    }
    uint32_t idx = s->nkernels++;
    memset(&s->kernel[idx], 0, sizeof s->kernel[idx]);
    s->kernel_id[idx] = kernel;
    s->kmap[h] = idx + 1;
    if (2 * s->nkernels > s->kmap_cap && kmap_grow(s) != 0)
        return 0;
    s->last_kernel = kernel;
    return s->last_kidx = idx;
}
/* }==== */

/* {==== Duplicate-MSHR monitor ==== */
static uint32_t dslot(uint64_t line, uint32_t cap)
{
    return (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static int dup_rehash(struct hd_mem_stats *s, uint64_t now)
{
    /* keep entries still inside the window; double if they fill more than half of it */
    uint32_t live = 0;
    const uint64_t w = s->dup_window;
    for (uint32_t i = 0; i < s->dup_cap; i++)
        if (s->dup[i].line && now - s->dup[i].t_a < w)
            live++;
    uint32_t ncap = s->dup_cap ? s->dup_cap : 1024;
    while (2 * (live + 1) > ncap)
        ncap *= 2;
    struct hd_dup_entry *n = calloc(ncap, sizeof *n);
    if (!n)
        return -1;
    for (uint32_t i = 0; i < s->dup_cap; i++) {
        const struct hd_dup_entry *e = &s->dup[i];
        if (!e->line || now - e->t_a >= w)
            continue;
        uint32_t h = dslot(e->line, ncap);
        while (n[h].line)
            h = (h + 1) & (ncap - 1);
        n[h] = *e;
    }
    free(s->dup);
    s->dup = n;
    s->dup_cap = ncap;
    s->dup_used = live;
    return 0;
}

bool hd_mem_stats_dup(struct hd_mem_stats *s, uint64_t line, uint32_t sm, uint64_t now)
{
    if (!s->dup_window)
        return false;
    if (4 * (s->dup_used + 1) > 3 * s->dup_cap && dup_rehash(s, now) != 0)
        return false;
    const uint64_t key = line + 1, w = s->dup_window;
    uint32_t h = dslot(key, s->dup_cap);
    while (s->dup[h].line && s->dup[h].line != key)
        h = (h + 1) & (s->dup_cap - 1);
    struct hd_dup_entry *e = &s->dup[h];
    if (!e->line) {
        *e = (struct hd_dup_entry){key, now, 0, sm, UINT32_MAX};
        s->dup_used++;
        return false;
    }
    bool dup = (e->sm_a != sm && now - e->t_a < w) ||
               (e->sm_b != UINT32_MAX && e->sm_b != sm && now - e->t_b < w);
    if (e->sm_a == sm) {
        e->t_a = now;
    } else {
        e->sm_b = e->sm_a;
        e->t_b = e->t_a;
        e->sm_a = sm;
        e->t_a = now;
    }
    return dup;
}
/* }==== */
