/* SPDX-License-Identifier: MIT
 * locality_loop.c - Gong's block distributor and warp-group tables stepped in the GPU timing
 * loop in lockstep with the locality policies (locality_loop.h; thesis ch.6 §6.3; docs/blocks/
 * locality.md "In the loop").
 */
#include "locality_loop.h"

#include "cta_dist_locality.h"
#include "hw_ref.h"
#include "locality_cta_dist.h"
#include "locality_group_sched.h"
#include "mech.h"
#include "sm_sched_ext.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NW LOCALITY_GROUP_SCHED_NW
#define RING (1u << LOCALITY_GROUP_SCHED_GW)                  /* group ids */
#define STEP (RING / NW > 1 ? RING / NW : 1)                   /* spacing of ascending ids */
#define DIST_CMAX ((uint64_t)(((uint64_t)1 << LOCALITY_CTA_DIST_CW) - 1u))
#define DIST_LMASK ((uint32_t)(((uint64_t)1 << LOCALITY_CTA_DIST_LW) - 1u))
#define DIST_IMAX ((uint64_t)(((uint64_t)1 << LOCALITY_CTA_DIST_IW) - 1u))

enum { U_CLR, U_WR, U_ISS }; /* the order the table applies them within one edge */

struct upd {
    uint8_t type;
    uint32_t local, gid;
};

struct group {
    uint32_t launch;
    uint64_t key;
    uint32_t id, refs;
};

/* One warp scheduler's group table and what the loop knows of it. */
struct gsched {
    struct hd_hw_inst x;
    struct upd *q;               /* what happened since the last decision, in order */
    unsigned qn, qcap;
    struct group g[NW + 1];      /* resident groups (+ the active one), ascending (launch, key) */
    unsigned ng;
    bool res[NW];
    uint32_t launch[NW];         /* each resident slot's group */
    uint64_t key[NW];
    uint64_t arrivals;           /* the policy's arrival count (hint 3) */
    bool act_v, selected;
    uint32_t act_launch;
    uint64_t act_key;
};

struct hd_locality_loop {
    uint32_t nsms, nsched, ngroups;
    const struct hd_hw_factory *const *hw;
    bool made, failed;
    struct gsched *gs;           /* [nsms * nsched], NULL: the scheduler is not locality */
    bool dist;                   /* the distributor is in the loop */
    struct hd_hw_inst dx;
    uint32_t chunk;              /* [timing] cta_dist_chunk */
    bool batch;                  /* a new batch since the last request */
    uint64_t fault_grant, fault_pick;
    char err[1024];
    /* cta_dist_order = keep: the block holds one launch's ranges */
    bool keep, kheld;
    uint32_t klaunch;
    uint64_t kleft;              /* its fresh CTAs not yet placed */
};

static int fail(struct hd_locality_loop *L, char *err, size_t errlen)
{
    L->failed = true;
    snprintf(err, errlen, "%s", L->err);
    return -1;
}

/* {==== Creation ==== */
static int make_one(struct hd_locality_loop *L, const char *block, const char *name,
                    struct hd_hw_inst *x, size_t in_size, size_t out_size)
{
    const struct hd_hw_factory *f = L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
    char e[512];
    if (hd_hw_make_sized(f, block, name, x, in_size, out_size, e, sizeof e) != 0) {
        snprintf(L->err, sizeof L->err, "%s", e);
        return -1;
    }
    return 0;
}

int hd_locality_loop_make(struct hd_locality_loop *L, char *err, size_t errlen)
{
    if (L->made)
        return L->failed ? fail(L, err, errlen) : 0;
    L->made = true;
    if (L->dist && make_one(L, "locality_cta_dist", "gpu.locality_cta_dist", &L->dx,
                            sizeof(struct hd_locality_cta_dist_in),
                            sizeof(struct hd_locality_cta_dist_out)) != 0)
        return fail(L, err, errlen);
    for (uint32_t i = 0; L->gs && i < L->nsms * L->nsched; i++) {
        char name[64];
        snprintf(name, sizeof name, "sm%u.sched%u.locality_group_sched", i / L->nsched,
                 i % L->nsched);
        if (make_one(L, "locality_group_sched", name, &L->gs[i].x,
                     sizeof(struct hd_locality_group_sched_in),
                     sizeof(struct hd_locality_group_sched_out)) != 0)
            return fail(L, err, errlen);
    }
    return 0;
}

struct hd_locality_loop *hd_locality_loop_create(const struct hd_gpu_timing_params *p,
                                                 const struct hd_hw_factory *const *hw,
                                                 char *err, size_t errlen)
{
    const bool sched = p->sm.sched == HD_SCHED_LOCALITY;
    const bool dist = p->cta_dist == HD_CTADIST_LOCALITY;
    const uint32_t ns = p->sm.num_sched ? p->sm.num_sched : 1;
    const uint32_t own = (p->sm.max_warps + ns - 1) / ns;
    if (sched && own > NW) {
        snprintf(err, errlen, "key 'blocks': the group table locality_group_sched is built for "
                 "%d warps per scheduler (configs/rtl/locality_group_sched.ini), the GPU has [sm] "
                 "max_warps = %u over %u schedulers", NW, p->sm.max_warps, ns);
        return NULL;
    }
    if (dist && p->num_sms > LOCALITY_CTA_DIST_NSM) {
        snprintf(err, errlen, "key 'blocks': the block distributor locality_cta_dist is built "
                 "for %d SMs (configs/rtl/locality_cta_dist.ini), the GPU has %u",
                 LOCALITY_CTA_DIST_NSM, p->num_sms);
        return NULL;
    }
    if (dist && p->cta_dist_order == HD_CHUNK_COLUMN) {
        snprintf(err, errlen, "key 'blocks': the block distributor locality_cta_dist cuts chunks "
                 "in linear order (or keeps linear ranges) only; [timing] cta_dist_order = column "
                 "has no block");
        return NULL;
    }
    if (dist && p->cta_dist_chunk > DIST_CMAX) {
        snprintf(err, errlen, "key 'blocks': [timing] cta_dist_chunk = %u does not fit the block "
                 "distributor's %d-bit chunk size", p->cta_dist_chunk, LOCALITY_CTA_DIST_CW);
        return NULL;
    }
    struct hd_locality_loop *L = calloc(1, sizeof *L);
    if (!L || (sched && !(L->gs = calloc((size_t)p->num_sms * ns, sizeof *L->gs)))) {
        free(L);
        snprintf(err, errlen, "host out of memory for the locality blocks");
        return NULL;
    }
    L->nsms = p->num_sms;
    L->nsched = ns;
    const uint32_t per = p->sm.sched_active ? p->sm.sched_active : 1; /* as the policy */
    L->ngroups = (own + per - 1) / per ? (own + per - 1) / per : 1;
    L->hw = hw;
    L->dist = dist;
    L->chunk = p->cta_dist_chunk;
    L->keep = p->cta_dist_order == HD_CHUNK_KEEP;
    L->fault_grant = p->loc.fault_grant;
    L->fault_pick = p->loc.fault_pick;
    return L;
}

void hd_locality_loop_destroy(struct hd_locality_loop *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; L->gs && i < L->nsms * L->nsched; i++) {
        hd_hw_destroy(&L->gs[i].x);
        free(L->gs[i].q);
    }
    hd_hw_destroy(&L->dx);
    free(L->gs);
    free(L);
}

/* }==== */

/* {==== Group ids ==== */
static bool key_before(uint32_t la, uint64_t ka, uint32_t lb, uint64_t kb)
{
    return la != lb ? la < lb : ka < kb;
}

static int find_group(const struct gsched *s, uint32_t launch, uint64_t key)
{
    for (unsigned i = 0; i < s->ng; i++)
        if (s->g[i].launch == launch && s->g[i].key == key)
            return (int)i;
    return -1;
}

static void push(struct hd_locality_loop *L, struct gsched *s, struct upd u);

/* Spread the groups' ids evenly again (no free id was left between two neighbours): the active
 * group keeps its id (the table's active register holds it), the others follow it in key order
 * on the ring (before the first selection: ascending from the bottom, no wrap); every resident
 * warp's entry is written again (the writes queue before the next selection). */
static void relabel(struct hd_locality_loop *L, struct gsched *s)
{
    const uint32_t sp = RING / (s->ng + 1);
    int a = s->act_v ? find_group(s, s->act_launch, s->act_key) : -1;
    for (unsigned j = 0; j < s->ng; j++) {
        if (a >= 0)
            s->g[(a + j) % s->ng].id = (s->g[a].id + j * sp) % RING;
        else
            s->g[j].id = j * sp + sp / 2;
    }
    for (uint32_t l = 0; l < NW; l++) {
        const int i = s->res[l] ? find_group(s, s->launch[l], s->key[l]) : -1;
        if (i >= 0)
            push(L, s, (struct upd){U_WR, l, s->g[i].id});
    }
}

/* Where a new group at sorted position p goes: its id, or -1 when no id is free there. */
static int place_id(const struct gsched *s, unsigned p, uint32_t *v)
{
    if (s->ng == 0) {
        *v = RING / 2;
        return 0;
    }
    const struct group *pred = &s->g[(p + s->ng - 1) % s->ng], *succ = &s->g[p % s->ng];
    uint32_t gap = s->ng == 1 ? RING : (succ->id + RING - pred->id) % RING;
    if (!s->selected) { /* before the first selection the ids do not wrap */
        if (p == s->ng)
            gap = RING - pred->id;
        else if (p == 0)
            gap = succ->id + 1;
    }
    if (gap < 2)
        return -1;
    const uint32_t d = gap / 2 < STEP ? gap / 2 : STEP;
    if (p == s->ng)
        *v = (pred->id + d) % RING;          /* a new last group */
    else if (p == 0)
        *v = (succ->id + RING - d) % RING;   /* a new first group */
    else
        *v = (pred->id + gap / 2) % RING;    /* between two */
    return 0;
}

/* The id of group (launch, key), a new one placed between its neighbours' ids on the ring
 * (relabelling when none is free there); -1 when the groups outnumber what the table holds. */
static int group_id(struct hd_locality_loop *L, struct gsched *s, uint32_t launch, uint64_t key,
                    uint32_t *id)
{
    int f = find_group(s, launch, key);
    if (f >= 0) {
        s->g[f].refs++;
        *id = s->g[f].id;
        return 0;
    }
    if (s->ng > NW)
        return -1;
    unsigned p = 0;
    while (p < s->ng && key_before(s->g[p].launch, s->g[p].key, launch, key))
        p++;
    uint32_t v;
    if (place_id(s, p, &v) != 0) {
        relabel(L, s);
        if (place_id(s, p, &v) != 0)
            return -1;
    }
    memmove(&s->g[p + 1], &s->g[p], (s->ng - p) * sizeof s->g[0]);
    s->g[p] = (struct group){launch, key, v, 1};
    s->ng++;
    *id = v;
    return 0;
}

/* Drop group index i if no warp of it is resident and it is not the active one. */
static void maybe_drop(struct gsched *s, int i)
{
    if (i < 0 || s->g[i].refs)
        return;
    if (s->act_v && s->g[i].launch == s->act_launch && s->g[i].key == s->act_key)
        return;
    memmove(&s->g[i], &s->g[i + 1], (s->ng - (unsigned)i - 1) * sizeof s->g[0]);
    s->ng--;
}
/* }==== */

/* {==== The group tables ==== */
static void push(struct hd_locality_loop *L, struct gsched *s, struct upd u)
{
    if (u.type == U_ISS && s->qn && s->q[s->qn - 1].type == U_ISS) {
        s->q[s->qn - 1] = u; /* (issues of one warp in one cycle: the last counts) */
        return;
    }
    if (s->qn == s->qcap) {
        unsigned nc = s->qcap ? 2 * s->qcap : 32;
        struct upd *q = realloc(s->q, nc * sizeof *q);
        if (!q) {
            L->failed = true;
            snprintf(L->err, sizeof L->err, "host out of memory queueing a group table update");
            return;
        }
        s->q = q;
        s->qcap = nc;
    }
    s->q[s->qn++] = u;
}

void hd_locality_loop_warp(struct hd_locality_loop *L, uint32_t sm, uint32_t slot, uint8_t ev,
                           const struct hd_warp_view *v)
{
    if (!L || !L->gs || sm >= L->nsms || L->failed)
        return;
    const uint32_t sc = slot % L->nsched, local = slot / L->nsched;
    struct gsched *s = &L->gs[sm * L->nsched + sc];
    if (local >= NW)
        return;
    if (ev == HD_HSCHED_ADD && v) {
        const uint64_t arrival = s->arrivals++;
        const uint32_t launch = HD_LOCALITY_HINT(v->hint) ? v->launch : 0;
        const uint64_t key = hd_locality_group(v->hint, v->ctaid[0], v->ctaid[1], v->warp_in_cta,
                                               v->cta_warps, arrival, L->ngroups);
        if (s->res[local]) { /* (a slot taken again without a removal: drop the old group) */
            int i = find_group(s, s->launch[local], s->key[local]);
            if (i >= 0)
                s->g[i].refs--;
            maybe_drop(s, i);
        }
        uint32_t id;
        if (group_id(L, s, launch, key, &id) != 0) {
            L->failed = true;
            snprintf(L->err, sizeof L->err,
                     "sm%u.sched%u.locality_group_sched: no free group id for warp slot %u "
                     "(launch %u, CTA (%u,%u), warp %u): %u groups held, %u ids (GW = %d)",
                     sm, sc, slot, v->launch, v->ctaid[0], v->ctaid[1], v->warp_in_cta, s->ng,
                     RING, LOCALITY_GROUP_SCHED_GW);
            return;
        }
        s->res[local] = true;
        s->launch[local] = launch;
        s->key[local] = key;
        push(L, s, (struct upd){U_WR, local, id});
    } else if (ev == HD_HSCHED_REMOVE) {
        if (s->res[local]) {
            int i = find_group(s, s->launch[local], s->key[local]);
            if (i >= 0)
                s->g[i].refs--;
            maybe_drop(s, i);
        }
        s->res[local] = false;
        push(L, s, (struct upd){U_CLR, local, 0});
    } else if (ev == HD_HSCHED_ISSUE) {
        push(L, s, (struct upd){U_ISS, local, 0});
    }
}

static int gstep(struct hd_locality_loop *L, struct gsched *s,
                 const struct hd_locality_group_sched_in *in,
                 struct hd_locality_group_sched_out *out, uint64_t now)
{
    if (hd_hw_step(&s->x, in, out, now) != 0) {
        snprintf(L->err, sizeof L->err, "%s", s->x.ops->error(s->x.impl));
        return -1;
    }
    return 0;
}

/* The group id the loop wrote for local slot l (0 when it holds none). */
static unsigned slot_gid(const struct gsched *s, uint32_t l)
{
    const int i = l < NW && s->res[l] ? find_group(s, s->launch[l], s->key[l]) : -1;
    return i >= 0 ? (unsigned)s->g[i].id : 0u;
}

static void list_slots(char *buf, size_t len, const uint32_t *w, unsigned n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && o + 12 < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%u", i ? "," : "", w[i]);
}

int hd_locality_loop_order(struct hd_locality_loop *L, uint32_t sm, uint32_t sched,
                           const uint32_t *w, unsigned n, uint32_t *order, unsigned k,
                           uint64_t now, char *err, size_t errlen)
{
    if (!L || !L->gs || sm >= L->nsms || sched >= L->nsched || k == 0)
        return 0;
    if (hd_locality_loop_make(L, err, errlen) != 0)
        return -1;
    struct gsched *s = &L->gs[sm * L->nsched + sched];
    struct hd_locality_group_sched_in in;
    struct hd_locality_group_sched_out out;
    /* the updates since the last decision, one clear, write and issue per edge in their order */
    unsigned qi = 0;
    while (qi < s->qn) {
        memset(&in, 0, sizeof in);
        int last = -1;
        while (qi < s->qn && (int)s->q[qi].type > last) {
            const struct upd *u = &s->q[qi++];
            last = u->type;
            if (u->type == U_CLR) {
                in.clr_v_i = 1;
                in.clr_warp_i = u->local;
            } else if (u->type == U_WR) {
                in.wr_v_i = 1;
                in.wr_warp_i = u->local;
                in.wr_gid_i = u->gid;
            } else {
                in.iss_v_i = 1;
                in.iss_warp_i = u->local;
            }
        }
        if (gstep(L, s, &in, &out, now) != 0)
            return fail(L, err, errlen);
    }
    s->qn = 0;
    /* the request: the ready warps */
    memset(&in, 0, sizeof in);
    for (unsigned i = 0; i < n; i++)
        if (w[i] % L->nsched == sched && w[i] / L->nsched < NW)
            in.ready_i |= 1ull << (w[i] / L->nsched);
    if (gstep(L, s, &in, &out, now) != 0)
        return fail(L, err, errlen);
    memset(&in, 0, sizeof in); /* the read-out edge: the registered grant */
    if (gstep(L, s, &in, &out, now) != 0)
        return fail(L, err, errlen);
    uint32_t want = order[0];
    if (L->fault_grant && k > 1 && --L->fault_grant == 0)
        want = order[1]; /* test only: a wrong decision on the policy's side */
    const uint32_t got = (uint32_t)out.grant_warp_o * L->nsched + sched;
    if (!(out.grant_v_o & 1) || got != want) {
        char rs[256];
        list_slots(rs, sizeof rs, w, n);
        const uint32_t wl = want / L->nsched;
        snprintf(L->err, sizeof L->err,
                 "sm%u.sched%u.locality_group_sched at cycle %" PRIu64 ": grant_v_o=%u "
                 "grant_warp_o=%u (warp slot %u, group id %u), the policy (sm_sched_locality) "
                 "issues from warp slot %u first (group id %u); ready slots %s",
                 sm, sched, now, (unsigned)(out.grant_v_o & 1), (unsigned)out.grant_warp_o, got,
                 (unsigned)out.grant_gid_o, want, slot_gid(s, wl), rs);
        return fail(L, err, errlen);
    }
    /* the block's grant is the decision used (already first: they agree) */
    for (unsigned i = 1; i < k; i++)
        if (order[i] == got) {
            memmove(&order[1], &order[0], i * sizeof *order);
            order[0] = got;
            break;
        }
    /* its group is active now (the policy's too) */
    const uint32_t gl = out.grant_warp_o;
    const uint32_t pl = s->act_launch;
    const uint64_t pk = s->act_key;
    const bool had = s->act_v;
    s->act_v = s->selected = true;
    s->act_launch = s->launch[gl];
    s->act_key = s->key[gl];
    if (had && (pl != s->act_launch || pk != s->act_key))
        maybe_drop(s, find_group(s, pl, pk));
    return 0;
}
/* }==== */

/* {==== The block distributor ==== */
void hd_locality_loop_dist_reset(struct hd_locality_loop *L)
{
    if (L && L->dist)
        L->batch = true;
}

static int dstep(struct hd_locality_loop *L, const struct hd_locality_cta_dist_in *in,
                 struct hd_locality_cta_dist_out *out, uint64_t now)
{
    if (hd_hw_step(&L->dx, in, out, now) != 0) {
        snprintf(L->err, sizeof L->err, "%s", L->dx.ops->error(L->dx.impl));
        return -1;
    }
    return 0;
}

int hd_locality_loop_pick(struct hd_locality_loop *L, const struct hd_cta_dist_req *r,
                          const bool *ok, const bool *busy, uint32_t n, int *pick, uint64_t now,
                          char *err, size_t errlen)
{
    if (!L || !L->dist || *pick < 0) /* a deferred pick is no request (locality_loop.h) */
        return 0;
    if (hd_locality_loop_make(L, err, errlen) != 0)
        return -1;
    uint64_t chunk = L->chunk ? L->chunk : (r->nctas + n - 1) / n;
    const bool keep = L->keep && HD_LOCALITY_HINT(r->hint) != 0; /* (the policy's C) */
    if (keep && (r->nctas + n - 1) / n > chunk)
        chunk = (r->nctas + n - 1) / n;
    if (!chunk)
        chunk = 1;
    const bool kfresh = keep && !r->resumed;
    if (kfresh && r->nctas > DIST_IMAX) {
        snprintf(L->err, sizeof L->err, "gpu.locality_cta_dist at cycle %" PRIu64 ": launch %u's "
                 "%" PRIu64 " CTAs do not fit req_nctas_i (%d bits)", now, r->launch, r->nctas,
                 LOCALITY_CTA_DIST_IW);
        return fail(L, err, errlen);
    }
    if (kfresh && L->kheld && L->kleft && L->klaunch != r->launch) {
        snprintf(L->err, sizeof L->err, "gpu.locality_cta_dist at cycle %" PRIu64 ": launch %u "
                 "places a CTA while launch %u has %" PRIu64 " left; the block holds one "
                 "launch's ranges (cta_dist_order = keep)", now, r->launch, L->klaunch, L->kleft);
        return fail(L, err, errlen);
    }
    if (kfresh) {
        if (!L->kheld || L->klaunch != r->launch || !L->kleft)
            L->kleft = r->nctas;
        L->kheld = true;
        L->klaunch = r->launch;
        L->kleft--;
    }
    if (chunk > DIST_CMAX) {
        snprintf(L->err, sizeof L->err, "gpu.locality_cta_dist at cycle %" PRIu64 ": launch %u's "
                 "chunk of %" PRIu64 " CTAs does not fit req_chunk_i (%d bits)", now, r->launch,
                 chunk, LOCALITY_CTA_DIST_CW);
        return fail(L, err, errlen);
    }
    struct hd_locality_cta_dist_in in;
    struct hd_locality_cta_dist_out out;
    memset(&in, 0, sizeof in);
    in.batch_i = L->batch;
    L->batch = false;
    in.req_v_i = 1;
    in.req_launch_i = r->launch & DIST_LMASK;
    in.req_hint_i = HD_LOCALITY_HINT(r->hint);
    in.req_chunk_i = chunk;
    in.req_keep_i = L->keep;
    in.req_fresh_i = !r->resumed;
    in.req_nctas_i = r->nctas & DIST_IMAX;
    for (uint32_t i = 0; i < n; i++)
        if (ok[i] && !busy[i])
            in.ok_i |= 1ull << i;
    const uint64_t okm = in.ok_i;
    if (dstep(L, &in, &out, now) != 0)
        return fail(L, err, errlen);
    memset(&in, 0, sizeof in); /* the read-out edge: the registered pick */
    if (dstep(L, &in, &out, now) != 0)
        return fail(L, err, errlen);
    int want = *pick;
    if (L->fault_pick && --L->fault_pick == 0)
        want = (want + 1) % (int)n; /* test only: a wrong decision on the policy's side */
    const uint64_t want_cta = kfresh ? r->cta : 0; /* keep mode: the CTA the policy chose */
    if (!(out.pick_v_o & 1) || (int)out.pick_sm_o != want || out.pick_cta_o != want_cta) {
        snprintf(L->err, sizeof L->err,
                 "gpu.locality_cta_dist at cycle %" PRIu64 ": pick_v_o=%u pick_sm_o=%u "
                 "pick_cta_o=%" PRIu64 ", the policy (cta_dist_locality) places CTA %" PRIu64
                 " of launch %u (hint %u, chunk %" PRIu64 "%s) on SM %d; ok_i=0x%" PRIx64, now,
                 (unsigned)(out.pick_v_o & 1), (unsigned)out.pick_sm_o,
                 (uint64_t)out.pick_cta_o, r->cta, r->launch, HD_LOCALITY_HINT(r->hint), chunk,
                 kfresh ? ", keep" : "", want, okm);
        return fail(L, err, errlen);
    }
    *pick = (int)out.pick_sm_o; /* the block's pick is the decision used */
    return 0;
}
/* }==== */
