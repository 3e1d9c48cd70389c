/* SPDX-License-Identifier: MIT
 * zorua_blkdrive.c - the model's coordinator decisions taken from the zorua_coord block
 * (zorua_blkdrive.h; Zorua Sec. 3.2-3.5, Figure 11; docs/zorua.md "The coordinator block
 * decides").
 */
#include "zorua_blkdrive.h"

#include "zorua_alloc.h"
#include "mech.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define SETB(m, w) ((m)[(w) / 32u] |= (uint32_t)1 << ((w) % 32u))
#define CLRB(m, w) ((m)[(w) / 32u] &= ~((uint32_t)1 << ((w) % 32u)))

const char *zbd_fits(const struct zalloc *a, struct hd_zorua_coord_cfg *cfg)
{
    const struct hd_sm_params *p = a->p;
    if (!a->zorua || !zcl_keys(p->z_o_default, p->z_o_step, p->z_o_max, p->z_c_delta, p->z_epoch))
        return NULL;
    return zcl_kind(a->z.nwarps, a->z.nctas, a->z.rmt.nphys, a->z.smt.nphys, a->z.tmt.t.nphys,
                    a->reg_sets_max, a->z.smt.nsets, a->z.floor, cfg);
}

void zbd_init(struct zbd *b, const char *kind, const struct hd_zorua_coord_cfg *cfg)
{
    memset(b, 0, sizeof *b);
    b->kind = kind;
    (void)hd_zorua_coord_ref_init(&b->ref, cfg, NULL, 0); /* (a built configuration: valid) */
}

bool zbd_exited(const struct zbd *b, uint32_t w)
{
    return hd_zco_bit(b->exited, w);
}

bool zbd_admitted(const struct zbd *b, uint32_t w)
{
    return hd_zco_bit(b->adm, w);
}

bool zbd_room(const struct zalloc *a, uint32_t nw, uint32_t *blk, uint32_t *wid)
{
    const struct zbd *b = a->bd;
    if (b->arr_pend || nw == 0 || nw > b->ref.cfg.warps)
        return false;
    int k = -1; /* the block's choice: the lowest free logical block, the lowest free warps */
    for (uint32_t i = 0; i < b->ref.cfg.blocks && k < 0; i++)
        if (!b->ref.b[i].live)
            k = (int)i;
    if (k < 0 || a->cta[k].used)
        return false; /* (its CTA slot in the substrate: released after the block's exits) */
    uint32_t n = 0, live = 0;
    for (uint32_t w = 0; w < b->ref.cfg.warps; w++) {
        live += b->ref.w[w].live;
        if (!b->ref.w[w].live && n < nw)
            wid[n++] = w;
    }
    /* the block's request rule (its tb_req_o): free logical warps, and with request_virtual
       within the thread slots' virtual space (session 19) */
    if (!hd_zorua_coord_room(live, nw, b->ref.cfg.warps, true, b->ref.cfg.phys_slot,
                             b->ref.oth[HD_ZCO_SLOT], a->p->z_req_virtual))
        return false;
    *blk = (uint32_t)k;
    return true;
}

void zbd_arrive(struct zalloc *a, uint32_t blk, const uint32_t *wid, uint32_t nw, uint32_t rsets,
                uint32_t ssets)
{
    struct zbd *b = a->bd;
    memset(&b->arr, 0, sizeof b->arr);
    b->arr.tb_v_i = 1;
    b->arr.kwarps_i = nw;
    b->arr.tb_rsets_i = rsets;
    b->arr.tb_ssets_i = ssets;
    b->arr_pend = true;
    b->arr_blk = blk;
    memset(b->arr_mask, 0, sizeof b->arr_mask);
    for (uint32_t i = 0; i < nw; i++) {
        SETB(b->arr_mask, wid[i]);
        b->bar[wid[i]] = 0;
        b->nout -= b->out[wid[i]] == 2;
        b->out[wid[i]] = 0;
        b->known[wid[i]] = 0;
        CLRB(b->exited, wid[i]);
        CLRB(b->adm, wid[i]);
    }
}

static void push(struct zalloc *a, uint8_t kind, uint32_t w, uint32_t rsets, uint32_t ssets)
{
    struct zbd *b = a->bd;
    if (w >= b->ref.cfg.warps)
        return;
    if (b->qn == sizeof b->q / sizeof b->q[0]) {
        if (!a->fault_msg[0])
            snprintf(a->fault_msg, sizeof a->fault_msg,
                     "zorua: SM %u: more than %u warp events wait for the coordinator", a->sm,
                     b->qn);
        return;
    }
    b->q[(b->qh + b->qn++) % (sizeof b->q / sizeof b->q[0])] =
        (struct zbd_ev){kind, (uint8_t)w, (uint8_t)rsets, (uint8_t)ssets};
    b->nq[w]++;
}

void zbd_phase(struct zalloc *a, uint32_t w, uint32_t rsets, uint32_t ssets)
{
    push(a, HD_ZCO_PHASE, w, rsets, ssets);
}


void zbd_barrier(struct zalloc *a, uint32_t w)
{
    if (w >= a->bd->ref.cfg.warps || a->bd->bar[w] || zbd_exited(a->bd, w))
        return;
    a->bd->bar[w] = 1;
    push(a, HD_ZCO_BARRIER, w, 0, 0);
}

void zbd_exit(struct zalloc *a, uint32_t w)
{
    if (w >= a->bd->ref.cfg.warps || zbd_exited(a->bd, w))
        return;
    SETB(a->bd->exited, w);
    push(a, HD_ZCO_EXIT, w, 0, 0);
}

bool zbd_may_run(const struct zalloc *a, uint32_t w)
{
    const struct zbd *b = a->bd;
    return w < b->ref.cfg.warps && hd_zco_bit(b->sched, w) && !b->nq[w] && !b->bar[w];
}

bool zbd_hold(struct zalloc *a, uint32_t c, uint32_t w)
{
    struct zbd *b = a->bd;
    if (w >= b->ref.cfg.warps)
        return false;
    if ((b->bar[w] == 1 || (b->bar[w] == 2 && b->ref.w[w].bar)) && c < b->ref.cfg.blocks) {
        /* it is released by the substrate while the block still holds its barrier: the
           barrier completed there; the CTA-mates that never waited (the last to arrive) reach
           it now in the block */
        for (uint32_t i = 0; i < a->cta[c].nwarps; i++)
            zbd_barrier(a, a->cta[c].wid[i]);
    }
    return !zbd_may_run(a, w);
}

bool zbd_busy(const struct zalloc *a)
{
    const struct zbd *b = a->bd;
    struct hd_zorua_coord_out z;
    memset(&z, 0, sizeof z);
    memcpy(z.sched_o, b->ref.q.sched_o, sizeof z.sched_o);
    bool tries = false;
    for (uint32_t i = 0; i < HD_ZCO_MWORDS; i++)
        tries |= b->ref.try_mask[i] != 0;
    return b->arr_pend || b->qn || tries || memcmp(&b->ref.q, &z, sizeof z) != 0;
}

/* The first queued event whose warp the block holds schedulable (the block refuses others); it
 * leaves the queue. */
static bool next_event(struct zbd *b, struct zbd_ev *e)
{
    const uint32_t cap = sizeof b->q / sizeof b->q[0];
    for (uint32_t k = 0; k < b->qn; k++) {
        const struct zbd_ev x = b->q[(b->qh + k) % cap];
        if (!b->ref.w[x.warp].sched)
            continue;
        for (uint32_t j = k; j > 0; j--) /* (close the gap: the ones before keep their order) */
            b->q[(b->qh + j) % cap] = b->q[(b->qh + j - 1) % cap];
        b->qh = (b->qh + 1) % cap;
        b->qn--;
        b->nq[x.warp]--;
        *e = x;
        return true;
    }
    return false;
}

/* Warp w left its slot for swap and the block does not yet hold it schedulable (it waits at a
 * barrier or in a queue: it could not issue in a slot). */
static bool parked(const struct zbd *b, uint32_t w)
{
    return b->out[w] == 2 && !b->ref.w[w].sched;
}

/* The lowest logical warp whose thread slot is in swap takes a freed slot (L304); a warp
 * parked at a barrier only after every other (it could not issue in it). */
static void fill_slots(struct zalloc *a)
{
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t w = 0; w < a->z.nwarps && a->z.tmt.t.nfree; w++)
            if (zsl_of(&a->z.tmt, w) == ZMT_SWAP && parked(a->bd, w) == (pass == 1))
                (void)zmt_fill(&a->z.tmt.t, w, 0);
}

void zbd_seen(struct zalloc *a, uint32_t w, uint32_t ctx)
{
    struct zbd *b = a->bd;
    const uint32_t k = w < b->ref.cfg.warps ? b->ref.w[w].blk : ZC_MAX_CTAS;
    if (k >= ZC_MAX_CTAS || !a->cta[k].used)
        return;
    for (uint32_t i = 0; i < a->cta[k].nwarps; i++) {
        const uint32_t v = a->cta[k].wid[i];
        if (v < b->ref.cfg.warps) {
            b->ctx[v] = ctx;
            b->wix[v] = (uint8_t)i;
            b->known[v] = 1;
        }
    }
}

bool zbd_left(struct zalloc *a, uint32_t w)
{
    struct zbd *b = a->bd;
    if (w >= b->ref.cfg.warps || b->out[w] != 1)
        return false;
    b->out[w] = 2;
    b->nout++;
    b->leaving = false;
    (void)zmt_spill(&a->z.tmt.t, w, 0);
    fill_slots(a);
    return true;
}

/* Digest L252 (barriers are phase boundaries; a waiting warp does not need its thread slot):
 * while every physical slot is held and a schedulable warp's slot is in swap, a warp the block
 * holds unschedulable (at a barrier, or in a queue after a phase boundary: it cannot issue)
 * leaves its slot (the substrate's switch-out; a barrier completes with absent warps) and the
 * schedulable warp gets it; a warp out for swap returns once its TMT entry has a physical slot
 * again. Without it, waiting warps keep every slot the schedulable ones need, and the floor
 * sees schedulable warps that cannot run (docs/zorua.md, "The Fermi barrier livelock"). */
static void swap_barrier(struct zalloc *a, uint64_t now)
{
    struct zbd *b = a->bd;
    const struct hd_mech_act *act = a->act;
    if (!act || !act->warp_out || !act->warp_in)
        return;
    for (uint32_t w = 0; w < a->z.nwarps && b->nout; w++)
        if (b->out[w] == 2 && zsl_of(&a->z.tmt, w) < ZMT_SWAP &&
            act->warp_in(act->gpu, a->sm, b->ctx[w], b->wix[w], now)) {
            b->out[w] = 0;
            b->nout--;
        }
    if (b->leaving || a->z.tmt.t.nfree)
        return;
    bool want = false;
    for (uint32_t w = 0; w < a->z.nwarps && !want; w++)
        want = b->ref.w[w].live && b->ref.w[w].sched && !parked(b, w) &&
               zsl_of(&a->z.tmt, w) == ZMT_SWAP && !zbd_exited(b, w);
    if (!want)
        return;
    for (uint32_t v = 0; v < a->z.nwarps; v++) {
        const uint32_t s = zsl_of(&a->z.tmt, v);
        if (b->ref.w[v].live && b->ref.w[v].pend && !b->ref.w[v].sched && b->out[v] == 0 &&
            b->known[v] &&
            s < a->p->max_warps && a->slot_wid[s] == v &&
            act->warp_out(act->gpu, a->sm, s, UINT64_MAX, now)) {
            b->out[v] = 1;
            b->leaving = true;
            return;
        }
    }
}

static int fail(struct zalloc *a, uint64_t now, const char *what, uint64_t got, uint64_t want)
{
    snprintf(a->fault_msg, sizeof a->fault_msg,
             "zorua: cycle %" PRIu64 ", SM %u: the coordinator's %s is %" PRIu64 " (0x%" PRIx64
             "), the model granted %" PRIu64 " (0x%" PRIx64 ")",
             now, a->sm, what, got, got, want, want);
    return -1;
}

/* The outputs of a step applied to the model's tables and warps. */
static int apply(struct zalloc *a, uint64_t now, const struct hd_zorua_coord_out *o)
{
    struct zbd *b = a->bd;
    struct zcoord *z = &a->z;
    if (o->arr_v_o && b->arr_check) {
        b->arr_check = false;
        if (!o->arr_ok_o)
            return fail(a, now, "arrival (refused)", 0, 1);
        if (o->arr_blk_o != b->arr_due)
            return fail(a, now, "arrival's logical block", o->arr_blk_o, b->arr_due);
        for (uint32_t w = 0; w < HD_ZCO_WARPS_MAX; w++) /* (the first warp that differs) */
            if (hd_zco_bit(o->arr_wmask_o, w) != hd_zco_bit(b->arr_due_mask, w)) {
                snprintf(a->fault_msg, sizeof a->fault_msg,
                         "zorua: cycle %" PRIu64 ", SM %u: the coordinator's arrival %s logical "
                         "warp %u, the model's grant %s",
                         now, a->sm, hd_zco_bit(o->arr_wmask_o, w) ? "has" : "lacks", w,
                         hd_zco_bit(b->arr_due_mask, w) ? "has it" : "does not");
                return -1;
            }
    }
    /* a warp readmitted after the block took its barrier passed it (read before this step's
       event: an admission at the event's edge is one from before) */
    const bool bar_pass = o->gr_v_o && b->bar[o->gr_warp_o & (HD_ZCO_WARPS_MAX - 1u)] == 2;
    if (o->ev_v_o) {
        const uint32_t w = (uint32_t)o->rl_warp_o, blk = (uint32_t)o->rl_blk_o;
        if (!o->ev_ok_o)
            return fail(a, now, "event acceptance", 0, 1);
        if (b->ev_fly && b->fly.kind == HD_ZCO_BARRIER && b->fly.warp == w)
            b->bar[w] = 2;
        if (o->rl_slot_o) { /* exit: the slot and register sets, the block's scratchpad */
            zsl_give(&z->tmt, w);
            fill_slots(a);
        }
        if (o->rl_rsets_o)
            zmt_shrink(&z->rmt, w, (uint32_t)o->rl_rfrom_o);
        if (o->rl_ssets_o)
            zmt_shrink(&z->smt, blk, 0);
        zc_fill_back(z); /* migrate on free (docs/zorua.md) */
        struct zc_warp *x = &z->w[w];
        if (x->where == ZC_SCHED)
            z->schedulable--;
        x->where = b->ref.w[w].live ? (uint8_t)(b->ref.w[w].pend ? b->ref.w[w].queue : ZC_SCHED)
                                    : (uint8_t)ZC_FREE;
        if (x->where == ZC_SCHED)
            z->schedulable++;
    }
    if (o->gr_v_o) { /* step 6: the mapping tables; step 7: schedulable */
        const uint32_t w = (uint32_t)o->gr_warp_o, blk = (uint32_t)o->gr_blk_o;
        const bool force = o->gr_force_o != 0;
        /* (the block kept the totals within physical + o_thresh, or the floor forced it: the
           tables place on chip while units are free, the rest in swap) */
        if (o->gr_slot_o && zsl_of(&z->tmt, w) == ZSL_NONE)
            (void)zmt_grow(&z->tmt.t, w, 1, 0, true);
        if (o->gr_ssets_o)
            (void)zmt_grow(&z->smt, blk, (uint32_t)(o->gr_sfrom_o + o->gr_ssets_o), 0, true);
        if (o->gr_rsets_o)
            (void)zmt_grow(&z->rmt, w, (uint32_t)(o->gr_rfrom_o + o->gr_rsets_o), 0, true);
        struct zc_warp *x = &z->w[w];
        if (x->where != ZC_FREE && x->where != ZC_SCHED) {
            x->where = ZC_SCHED;
            x->seq = ++z->seq;
            z->schedulable++;
        }
        z->admitted++;
        z->forced += force;
        SETB(b->adm, w);
        if (bar_pass)
            b->bar[w] = 0;
    }
    memcpy(b->sched, o->sched_o, sizeof b->sched);
    b->moved = o->gr_v_o || o->ev_v_o || o->arr_v_o;
    return 0;
}

int zbd_cycle(struct zalloc *a, uint64_t now, bool active, bool idle, bool mem, bool *ep_v,
              uint32_t *ep_pct)
{
    struct zbd *b = a->bd;
    struct hd_zorua_coord_in in;
    memset(&in, 0, sizeof in);
    if (b->arr_pend) {
        in = b->arr;
        b->arr_pend = false;
        b->arr_check = true;
        b->arr_due = b->arr_blk;
        memcpy(b->arr_due_mask, b->arr_mask, sizeof b->arr_due_mask);
    }
    in.active_i = active;
    in.idle_i = idle;
    in.mem_i = mem;
    in.vreq_i = a->p->z_req_virtual; /* session 19's readings ([zorua] keys) */
    in.fbar_i = a->p->z_floor_bar;
    if (!in.kwarps_i) /* (the room a block of the last arrival's size would need) */
        in.kwarps_i = b->arr.kwarps_i;
    struct zbd_ev e;
    const bool fly = b->ev_fly;
    const struct zbd_ev was = b->fly;
    b->ev_fly = false;
    if (next_event(b, &e)) {
        b->ev_fly = true;
        b->fly = e;
        in.ev_v_i = 1;
        in.ev_kind_i = e.kind;
        in.ev_warp_i = e.warp;
        in.ev_rsets_i = e.rsets;
        in.ev_ssets_i = e.ssets;
    }
    struct hd_zorua_coord_out want, got;
    if (hd_zorua_coord_ref_idle(&b->ref, &in)) {
        /* (an idle block's step gives its outputs, all 0, and leaves its state as it was but
           for the cycle count: an SM without CTAs costs no step; the RTL is stepped still) */
        want = b->ref.q;
        b->ref.cycle++;
    } else {
        hd_zorua_coord_ref_step(&b->ref, &in, &want);
    }
    if (zcl_step(a->cl, a->sm, now, &in, &want, &got, a->fault_msg, sizeof a->fault_msg) != 0)
        return -1;
    const bool fly_now = b->ev_fly;
    const struct zbd_ev now_ev = b->fly;
    b->ev_fly = fly; /* (the result in got is the previous step's event's) */
    b->fly = was;
    const int r = apply(a, now, &got);
    b->ev_fly = fly_now;
    b->fly = now_ev;
    if (r != 0)
        return -1;
    *ep_v = got.ep_v_o != 0;
    *ep_pct = (uint32_t)got.ep_pct_o;
    swap_barrier(a, now);
    return 0;
}

