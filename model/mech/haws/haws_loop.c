/* SPDX-License-Identifier: MIT
 * haws_loop.c - the result collection units, register rename tables, shadow SIMT stacks and
 * warp controllers stepped in the timing loop by the run-ahead engine's events (haws_loop.h;
 * Gong thesis ch.5 §5.2.4-5.2.6; docs/blocks/haws.md §9-10).
 */
#include "haws_loop_parts.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D HD_HAWS_RCU_DEPTH
#define NMAP HD_HAWS_RENAME_N
#define NSRC HAWS_RENAME_NSRC
#define REGS (1u << HAWS_RCU_REGW)           /* register names */
#define NAMES (REGS - D)                     /* below them: the renamed names */

const struct hd_haws_loop_kind hd_haws_loop_kinds[K_COUNT] = {
    {"haws_rcu", "the result collection unit", sizeof(struct hd_haws_rcu_in),
     sizeof(struct hd_haws_rcu_out)},
    {"haws_rename", "the register rename table", sizeof(struct hd_haws_rename_in),
     sizeof(struct hd_haws_rename_out)},
    {"haws_shadow_stack", "the shadow SIMT stack", sizeof(struct hd_haws_shadow_stack_in),
     sizeof(struct hd_haws_shadow_stack_out)},
    {"haws_warp_ctl", "the HAWS warp controller", sizeof(struct hd_haws_warp_ctl_in),
     sizeof(struct hd_haws_warp_ctl_out)},
};

static const char *const ev_names[] = {"clear",  "allocation", "load write-back", "return",
                                       "pop",    "warp reset", "trigger",         "walk",
                                       "in-order step"};

/* {==== Creation ==== */
struct hd_haws_loop *hd_haws_loop_create(const struct hd_gpu_timing_params *p,
                                         const struct hd_hw_factory *const *hw, char *err,
                                         size_t errlen)
{
    if (p->haws.rcu_depth != D) {
        snprintf(err, errlen, "key 'blocks': the result collection unit haws_rcu is built for %d "
                 "entries per warp (configs/rtl/haws_rcu.ini), [haws] rcu_depth = %u", D,
                 p->haws.rcu_depth);
        return NULL;
    }
    if (NMAP < 2 * D || HAWS_RENAME_REGW != HAWS_RCU_REGW || (1u << HAWS_RENAME_NEWW) < D) {
        snprintf(err, errlen, "key 'blocks': the rename table haws_rename (configs/rtl/"
                 "haws_rename.ini) must map every destination of %d RCU entries (N >= %d), with "
                 "the RCU's register width and an entry index as location", D, 2 * D);
        return NULL;
    }
    if (p->haws.window > HAWS_WARP_CTL_Win || p->haws.rcu_depth >= (1u << HAWS_WARP_CTL_NW) ||
        HAWS_SHADOW_STACK_MW < 32 || HAWS_WARP_CTL_PCW < 32 || HAWS_SHADOW_STACK_PCW < 32) {
        snprintf(err, errlen, "key 'blocks': the warp controller haws_warp_ctl holds a window of "
                 "%d PCs and %d-bit RCU counts, [haws] window = %u, rcu_depth = %u; the shadow "
                 "stack and the controller need 32-bit PCs and masks (configs/rtl/"
                 "haws_warp_ctl.ini, haws_shadow_stack.ini)", HAWS_WARP_CTL_Win,
                 HAWS_WARP_CTL_NW, p->haws.window, p->haws.rcu_depth);
        return NULL;
    }
    struct hd_haws_loop *L = calloc(1, sizeof *L);
    const size_t n = (size_t)p->num_sms * p->sm.max_warps;
    if (!L || !(L->w = calloc(n ? n : 1, sizeof *L->w))) {
        free(L);
        snprintf(err, errlen, "[haws]: host out of memory for the HAWS blocks");
        return NULL;
    }
    L->hw = hw;
    L->nsms = p->num_sms;
    L->nslots = p->sm.max_warps;
    L->fault = p->haws.blocks_fault;
    L->fault_kind = -1;
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < D; k++)
            L->w[i].m.ready_at[k] = UINT64_MAX;
    return L;
}

void hd_haws_loop_destroy(struct hd_haws_loop *L)
{
    if (!L)
        return;
    for (size_t i = 0; i < (size_t)L->nsms * L->nslots; i++)
        for (unsigned k = 0; k < K_COUNT; k++)
            hd_hw_destroy(&L->w[i].x[k]);
    free(L->w);
    free(L);
}

int hd_haws_loop_make(struct hd_haws_loop *L, char *err, size_t errlen)
{
    if (L->made)
        return 0;
    L->made = true;
    const struct hd_hw_factory *f = L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
    for (uint32_t s = 0; s < L->nsms; s++)
        for (uint32_t slot = 0; slot < L->nslots; slot++) {
            struct warp *w = &L->w[(size_t)s * L->nslots + slot];
            for (unsigned k = 0; k < K_COUNT; k++) {
                char name[64];
                snprintf(name, sizeof name, "sm%u.w%u.%s", s, slot, hd_haws_loop_kinds[k].block);
                if (hd_hw_make_sized(f, hd_haws_loop_kinds[k].block, name, &w->x[k],
                                     hd_haws_loop_kinds[k].in_size,
                                     hd_haws_loop_kinds[k].out_size, err, errlen) != 0) {
                    L->failed = true;
                    return -1;
                }
                w->x[k].ops->reset(w->x[k].impl);
                const uint64_t tag[2] = {s, slot};
                hd_hw_set_tag(&w->x[k], tag, 2);
            }
        }
    return 0;
}

/* }==== */

/* {==== One edge, checked ==== */
/* The first output port where out differs from want (-1: none). */
static int differ(const struct hd_block_desc *b, const void *out, const void *want)
{
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        if (p->dir != HD_DIR_OUT || p->wide)
            continue;
        uint64_t x, y;
        memcpy(&x, (const char *)out + p->offset, sizeof x);
        memcpy(&y, (const char *)want + p->offset, sizeof y);
        if (x != y)
            return (int)i;
    }
    return -1;
}

static void rcu_expect(const struct mirror *m, struct hd_haws_rcu_out *o)
{
    memset(o, 0, sizeof *o);
    o->count_o = m->cnt;
    o->full_o = m->cnt == D;
    o->tail_o = m->tail;
    for (uint32_t i = 0; i < D; i++) {
        o->valid_o |= (uint64_t)m->val[i] << i;
        o->ready_o |= (uint64_t)(m->val[i] && m->rdy[i]) << i;
    }
    o->head_idx_o = m->head;
    if (m->cnt) {
        const uint32_t h = m->head;
        o->head_v_o = 1;
        o->head_off_o = m->off[h];
        o->head_dst_o = m->dst[h];
        o->head_ren_o = m->ren[h];
        o->head_ready_o = m->rdy[h];
        o->head_ctrl_o = m->ctl[h];
    }
}

static void ren_expect(const struct mirror *m, struct hd_haws_rename_out *o)
{
    memset(o, 0, sizeof *o);
    o->rd_hit_o = m->look_hit;
    o->rd_new_o = m->look_loc;
    o->count_o = m->nmap;
}

/* Step block k of warp (sm, slot) with in; out = its outputs, checked against what the events
 * say it holds. Returns 0, or -1 (L->failed, L->err located). */
int hd_haws_loop_edge(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, unsigned k,
                      const void *in, void *out, uint64_t now)
{
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    if (now < w->last[k])
        now = w->last[k]; /* (an event stamped with an earlier tick) */
    w->last[k] = now;
    union {
        struct hd_haws_rcu_out r;
        struct hd_haws_rename_out n;
    } want;
    const bool fault = L->fault && !L->faulted && L->steps + 1 >= L->fault;
    if (k == K_RCU) {
        rcu_expect(&w->m, &want.r);
        if (fault)
            want.r.count_o ^= 1u; /* [haws] blocks_fault: a wrong expectation */
    } else if (k == K_REN) {
        ren_expect(&w->m, &want.n);
        if (fault)
            want.n.count_o ^= 1u;
    }
    if (fault && k > K_REN)
        L->fault_kind = (int)k; /* its next check (a read-out or a decision) */
    L->faulted |= fault;
    L->steps++;
    if (hd_hw_step(&w->x[k], in, out, now) != 0) {
        L->failed = true;
        snprintf(L->err, sizeof L->err, "haws: cycle %" PRIu64 ", SM %u, warp slot %u: %s", now,
                 sm, slot, w->x[k].ops->error(w->x[k].impl));
        return -1;
    }
    if (k > K_REN)
        return 0; /* (the shadow stack and the controller: their read-outs are checked) */
    const int d = differ(w->x[k].b, out, &want);
    if (d < 0)
        return 0;
    const struct hd_port_desc *p = &w->x[k].b->ports[d];
    uint64_t got, exp;
    memcpy(&got, (const char *)out + p->offset, sizeof got);
    memcpy(&exp, (const char *)&want + p->offset, sizeof exp);
    L->failed = true;
    snprintf(L->err, sizeof L->err,
             "haws: MISMATCH at cycle %" PRIu64 ", SM %u, warp slot %u, block %s (sm%u.w%u.%s, "
             "%s), port %s = %" PRIu64 " (0x%" PRIx64 "), the run-ahead engine's events say %" PRIu64
             " (0x%" PRIx64 ") before the edge of the %s (the RCU held %u entries, head %u)",
             now, sm, slot, hd_haws_loop_kinds[k].block, sm, slot,
             hd_haws_loop_kinds[k].block, hd_haws_loop_kinds[k].what, p->name, got,
             got, exp, exp, L->ev ? L->ev : "read-out", w->m.cnt, w->m.head);
    return -1;
}

static int rcu_edge(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                    const struct hd_haws_rcu_in *in, struct hd_haws_rcu_out *out, uint64_t now)
{
    struct hd_haws_rcu_out o;
    return hd_haws_loop_edge(L, sm, slot, K_RCU, in, out ? out : &o, now);
}

/* A rename-table edge; the mirror's registered lookup follows the block's. */
static int ren_edge(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                    const struct hd_haws_rename_in *in, struct hd_haws_rename_out *out,
                    uint64_t now)
{
    struct hd_haws_rename_out o;
    if (hd_haws_loop_edge(L, sm, slot, K_REN, in, out ? out : &o, now) != 0)
        return -1;
    struct mirror *m = &L->w[(size_t)sm * L->nslots + slot].m;
    m->look_hit = m->look_loc = 0;
    for (unsigned s = 0; s < NSRC; s++) {
        if (!(in->rd_v_i >> s & 1u))
            continue;
        const uint32_t r = (uint32_t)(in->rd_src_i >> (s * HAWS_RENAME_REGW)) & (REGS - 1u);
        for (unsigned e = 0; e < m->nmap; e++)
            if (m->morig[e] == r) {
                m->look_hit |= 1ull << s;
                m->look_loc |= (uint64_t)m->mloc[e] << (s * HAWS_RENAME_NEWW);
            }
    }
    return 0;
}
/* }==== */

/* {==== Events ==== */
/* Apply warp w's write-backs due by now (in write-back order) as RCU edges. */
static int flush_wb(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, uint64_t now)
{
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    while (w->nwb) {
        int best = -1;
        for (uint32_t i = 0; i < D; i++)
            if (w->m.ready_at[i] <= now && (best < 0 || w->m.ready_at[i] < w->m.ready_at[best]))
                best = (int)i;
        if (best < 0)
            return 0;
        const uint64_t at = w->m.ready_at[best];
        w->m.ready_at[best] = UINT64_MAX;
        w->nwb--;
        struct hd_haws_rcu_in in = {.wb_v_i = 1, .wb_idx_i = (uint64_t)best};
        L->ev = "ALU write-back";
        if (rcu_edge(L, sm, slot, &in, NULL, at) != 0)
            return -1;
        w->m.rdy[best] = w->m.val[best];
    }
    return 0;
}

static void clear_map(struct mirror *m)
{
    m->nmap = 0;
}

static void map(struct mirror *m, uint32_t r, uint32_t loc)
{
    for (unsigned e = 0; e < m->nmap; e++)
        if (m->morig[e] == r) {
            m->mloc[e] = loc;
            return;
        }
    if (m->nmap < NMAP) { /* (more is a refused write: the block's ovf_o, a mismatch) */
        m->morig[m->nmap] = r;
        m->mloc[m->nmap++] = loc;
    }
}

static int on_rcu(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                  const struct hd_ahead_event *e, uint64_t now)
{
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    struct mirror *m = &w->m;
    struct hd_haws_rcu_in in;
    memset(&in, 0, sizeof in);
    switch (e->ev) {
    case HD_AHEV_CLEAR:
        in.clr_i = 1;
        if (rcu_edge(L, sm, slot, &in, NULL, now) != 0)
            return -1;
        memset(m->val, 0, sizeof m->val);
        memset(m->rdy, 0, sizeof m->rdy);
        for (uint32_t i = 0; i < D; i++)
            m->ready_at[i] = UINT64_MAX;
        w->nwb = 0;
        m->head = m->tail = m->cnt = 0;
        return 0;
    case HD_AHEV_ALLOC: {
        if (e->idx != m->tail || m->cnt == D) {
            L->failed = true;
            snprintf(L->err, sizeof L->err, "haws: cycle %" PRIu64 ", SM %u, warp slot %u: the "
                     "engine allocated RCU entry %u, the unit's tail is %u with %u entries held",
                     now, sm, slot, e->idx, m->tail, m->cnt);
            return -1;
        }
        const uint32_t dst = e->ndst ? (uint32_t)e->dst[0] : 0;
        in.alloc_v_i = 1;
        in.alloc_off_i = e->off;
        in.alloc_dst_i = e->ctrl ? 0 : dst;
        in.alloc_ren_i = e->ctrl ? 0 : e->renamed ? REGS - 1u - e->idx : dst;
        in.alloc_ctrl_i = e->ctrl;
        if (rcu_edge(L, sm, slot, &in, NULL, now) != 0)
            return -1;
        const uint32_t t = m->tail;
        m->off[t] = e->off & ((1u << HAWS_RCU_OFFW) - 1u);
        m->dst[t] = (uint32_t)in.alloc_dst_i;
        m->ren[t] = (uint32_t)in.alloc_ren_i;
        m->ctl[t] = e->ctrl;
        m->val[t] = true;
        m->rdy[t] = false;
        m->tail = (t + 1u) % D;
        m->cnt++;
        if (e->ready_at != UINT64_MAX) { /* an ALU result: written back at its cycle */
            m->ready_at[t] = e->ready_at;
            w->nwb++;
        }
        return 0;
    }
    case HD_AHEV_READY:
        in.wb_v_i = 1;
        in.wb_idx_i = e->idx % D;
        if (rcu_edge(L, sm, slot, &in, NULL, now) != 0)
            return -1;
        m->rdy[e->idx % D] = m->val[e->idx % D];
        return 0;
    case HD_AHEV_POP:
        in.pop_i = 1;
        if (rcu_edge(L, sm, slot, &in, NULL, now) != 0)
            return -1;
        if (m->cnt) {
            if (m->ready_at[m->head] != UINT64_MAX) { /* (popped before its write-back: a branch) */
                m->ready_at[m->head] = UINT64_MAX;
                w->nwb--;
            }
            m->val[m->head] = m->rdy[m->head] = false;
            m->head = (m->head + 1u) % D;
            m->cnt--;
        }
        return 0;
    default:
        return 0;
    }
}

static int on_ren(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                  const struct hd_ahead_event *e, uint64_t now)
{
    struct mirror *m = &L->w[(size_t)sm * L->nslots + slot].m;
    struct hd_haws_rename_in in;
    memset(&in, 0, sizeof in);
    if (e->ev == HD_AHEV_CLEAR || e->ev == HD_AHEV_RETURN) {
        in.clr_i = 1;
        if (ren_edge(L, sm, slot, &in, NULL, now) != 0)
            return -1;
        clear_map(m);
        return 0;
    }
    if (e->ev != HD_AHEV_ALLOC)
        return 0;
    for (unsigned j = 0; j < e->ndst && j < 2; j++) {
        in.wr_v_i = 1;
        in.wr_orig_i = (uint32_t)e->dst[j];
        in.wr_new_i = e->idx;
        if (ren_edge(L, sm, slot, &in, NULL, now) != 0)
            return -1;
        map(m, (uint32_t)e->dst[j], e->idx);
    }
    return 0;
}

static bool fits(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                 const struct hd_ahead_event *e, uint64_t now)
{
    for (unsigned j = 0; j < e->ndst && j < 2; j++)
        if (e->dst[j] < 0 || (uint32_t)e->dst[j] >= NAMES) {
            L->failed = true;
            snprintf(L->err, sizeof L->err,
                     "haws: cycle %" PRIu64 ", SM %u, warp slot %u: register %d of a hint-mode "
                     "instruction does not fit the HAWS blocks' %d-bit register names below the "
                     "%d renamed names (configs/rtl/haws_rcu.ini, haws_rename.ini REGW)",
                     now, sm, slot, (int)e->dst[j], HAWS_RCU_REGW, D);
            return false;
        }
    return true;
}


void hd_haws_loop_event(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                        const struct hd_ahead_event *e, uint64_t now)
{
    if (!L || L->failed || sm >= L->nsms || slot >= L->nslots)
        return;
    if (!L->made && hd_haws_loop_make(L, L->err, sizeof L->err) != 0)
        return;
    L->ev = e->ev < sizeof ev_names / sizeof ev_names[0] ? ev_names[e->ev] : "event";
    if (e->ev == HD_AHEV_ALLOC && !fits(L, sm, slot, e, now))
        return;
    if (e->ev != HD_AHEV_CLEAR && flush_wb(L, sm, slot, now) != 0)
        return;
    L->ev = e->ev < sizeof ev_names / sizeof ev_names[0] ? ev_names[e->ev] : "event";
    if (on_rcu(L, sm, slot, e, now) != 0 || on_ren(L, sm, slot, e, now) != 0 ||
        hd_haws_loop_on_ctl(L, sm, slot, e, now) != 0)
        return;
    L->ev = NULL;
}
/* }==== */

/* {==== Decisions ==== */
static void disagree(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, const char *what,
                     uint64_t blk, uint64_t model, uint64_t now)
{
    L->failed = true;
    snprintf(L->err, sizeof L->err,
             "haws: MISMATCH at cycle %" PRIu64 ", SM %u, warp slot %u: the blocks' %s is %" PRIu64
             " (0x%" PRIx64 "), the run-ahead engine's %" PRIu64 " (0x%" PRIx64 ")",
             now, sm, slot, what, blk, blk, model, model);
}

void hd_haws_loop_rcu(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                      struct hd_ahead_rcu_view *v, uint64_t now)
{
    if (!L || L->failed || sm >= L->nsms || slot >= L->nslots)
        return;
    if (!L->made && hd_haws_loop_make(L, L->err, sizeof L->err) != 0)
        return;
    if (flush_wb(L, sm, slot, now) != 0)
        return;
    struct hd_haws_rcu_in in;
    struct hd_haws_rcu_out o;
    memset(&in, 0, sizeof in);
    L->ev = "RCU read-out";
    if (rcu_edge(L, sm, slot, &in, &o, now) != 0)
        return;
    L->ev = NULL;
    const struct hd_ahead_rcu_view b = {
        .full = o.full_o, .head_v = o.head_v_o, .head_ready = o.head_ready_o,
        .head_ctrl = o.head_ctrl_o, .head_copy = o.head_v_o && o.head_ren_o != o.head_dst_o,
        .head_off = (uint32_t)o.head_off_o};
    if (b.full != v->full)
        disagree(L, sm, slot, "RCU full", b.full, v->full, now);
    else if (b.head_v != v->head_v)
        disagree(L, sm, slot, "RCU head valid", b.head_v, v->head_v, now);
    else if (b.head_v && b.head_off != v->head_off)
        disagree(L, sm, slot, "RCU head offset", b.head_off, v->head_off, now);
    else if (b.head_v && b.head_ready != v->head_ready)
        disagree(L, sm, slot, "RCU head ready", b.head_ready, v->head_ready, now);
    else if (b.head_v && b.head_ctrl != v->head_ctrl)
        disagree(L, sm, slot, "RCU head branch bit", b.head_ctrl, v->head_ctrl, now);
    else if (b.head_v && b.head_copy != v->head_copy)
        disagree(L, sm, slot, "RCU head renamed (copy) bit", b.head_copy, v->head_copy, now);
    *v = b; /* the engine decides from the blocks */
}

void hd_haws_loop_raw(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, const int32_t *src,
                      unsigned n, uint32_t *mapped, uint32_t *ready, uint64_t now)
{
    if (!L || L->failed || sm >= L->nsms || slot >= L->nslots || n == 0)
        return;
    if (!L->made && hd_haws_loop_make(L, L->err, sizeof L->err) != 0)
        return;
    if (flush_wb(L, sm, slot, now) != 0)
        return;
    n = n > 32 ? 32 : n;
    uint32_t hit = 0, loc[32] = {0};
    struct hd_haws_rename_in in;
    struct hd_haws_rename_out o;
    L->ev = "rename lookup";
    /* chunk c's NSRC lookups go in at edge c and come out of step c + 1 */
    const unsigned nch = (n + NSRC - 1) / NSRC;
    uint64_t asked = 0; /* the previous chunk's rd_v_i */
    for (unsigned c = 0; c <= nch; c++) {
        memset(&in, 0, sizeof in);
        for (unsigned s = 0; c < nch && s < NSRC && c * NSRC + s < n; s++) {
            const int32_t r = src[c * NSRC + s];
            if (r < 0 || (uint32_t)r >= NAMES)
                continue; /* (never a destination in the blocks: a miss) */
            in.rd_v_i |= 1ull << s;
            in.rd_src_i |= (uint64_t)r << (s * HAWS_RENAME_REGW);
        }
        if (ren_edge(L, sm, slot, &in, &o, now) != 0)
            return;
        for (unsigned s = 0; c > 0 && s < NSRC; s++)
            if ((asked & o.rd_hit_o) >> s & 1u) {
                const unsigned j = (c - 1) * NSRC + s;
                hit |= 1u << j;
                loc[j] = (uint32_t)(o.rd_new_o >> (s * HAWS_RENAME_NEWW)) &
                         ((1u << HAWS_RENAME_NEWW) - 1u);
            }
        asked = in.rd_v_i;
    }
    uint32_t rdy = 0;
    if (hit) { /* the RCU's ready bits of the entries named */
        struct hd_haws_rcu_in ri;
        struct hd_haws_rcu_out ro;
        memset(&ri, 0, sizeof ri);
        L->ev = "RCU read-out";
        if (rcu_edge(L, sm, slot, &ri, &ro, now) != 0)
            return;
        for (unsigned j = 0; j < n; j++)
            if (hit >> j & 1u)
                rdy |= (uint32_t)(ro.ready_o >> (loc[j] % D) & 1u) << j;
    }
    L->ev = NULL;
    const uint32_t all = n == 32 ? ~0u : (1u << n) - 1u;
    if ((hit & all) != (*mapped & all))
        disagree(L, sm, slot, "renamed-source bits (rename table)", hit, *mapped & all, now);
    else if ((rdy & all) != (*ready & all))
        disagree(L, sm, slot, "ready-source bits (RCU)", rdy, *ready & all, now);
    *mapped = hit;
    *ready = rdy;
}

/* The warp controller's state (its registered outputs after its last edge: no step). */
int hd_haws_loop_cycle(struct hd_haws_loop *L, uint64_t now, char *err, size_t errlen)
{
    if (!L)
        return 0;
    if (!L->failed && L->made)
        for (uint32_t s = 0; s < L->nsms && !L->failed; s++)
            for (uint32_t slot = 0; slot < L->nslots && !L->failed; slot++)
                if (L->w[(size_t)s * L->nslots + slot].nwb)
                    flush_wb(L, s, slot, now);
    if (L->failed) {
        snprintf(err, errlen, "%s", L->err);
        return -1;
    }
    return 0;
}
/* }==== */
