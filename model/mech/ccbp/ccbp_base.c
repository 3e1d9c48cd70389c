/* SPDX-License-Identifier: MIT
 * ccbp_base.c - the issue-time parts of the schemes Lin ch.4 compares CCBP with (Table 4.1's
 * comparison list, digest §4.3 and §7.4; docs/blocks/ccbp.md "Baselines"), run on CCBP's
 * applications and CTA combination (ccbp_mech.c):
 *   SMK [Wan16]   warp-scheduler time quotas ([ccbp] smk_epoch, smk_quota): per SM and
 *                 application a count of the warp instructions issued in the current epoch.
 *                 An application that issued its quota waits (the issue stage holds its warps:
 *                 mech.h hold) until the epoch ends, or until every application with warps on
 *                 that SM and a quota has used its quota: then the quotas refill at once (a new
 *                 epoch starts on that SM). SMK's DRF over the static resources is the CTA
 *                 combination (experiments/ccbp.py smk_combo, [ccbp] ctas).
 *   Dai18         memory-instruction limiting ([ccbp] mil): per SM and application a count of
 *                 global/local loads (and atomics with a result) in flight, from the load_sent
 *                 and load_returned events. A warp whose next instruction is a load (ld, ldu,
 *                 atom of the global, local or generic space) waits while its application is at
 *                 its limit. The combination is Warped-Slicer's ([ccbp] ctas).
 *   Dai18 DMIL    the dynamic limit ([ccbp] mil_epoch > 0; the digest names only "memory-
 *                 instruction scheduling", so the rule is ours): per SM and application the limit
 *                 starts at [ccbp] mil. Over each epoch the SM measures the application's mean
 *                 load latency by Little's law (loads in flight integrated over the cycles, over
 *                 the loads returned); the lowest mean of an epoch with at least
 *                 CCBP_DMIL_MIN_RETS returns is its uncongested latency. At an epoch's end with
 *                 at least CCBP_DMIL_MIN_RETS returns: a mean above CCBP_DMIL_FACTOR x the
 *                 lowest halves the limit (at least 1): the memory pipeline is congested; else
 *                 the limit grows by 1 up to [ccbp] mil. Epochs roll lazily at the SM's next
 *                 event, each closed at its boundary.
 * A count that stays at the limit for CCBP_MIL_STUCK cycles with warps held (a load whose
 * return the events did not pair; none is known) is cleared and counted in the log
 * (mil_resets), so a lost event cannot hang a run; the tests assert 0.
 * Both gates hold a ready warp, so the SM keeps ticking and asks again each cycle.
 */
#include "ccbp.h"

#include "annot.h"
#include "ptx_ir.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define CCBP_MIL_STUCK 20000u
#define CCBP_DMIL_MIN_RETS 8u
#define CCBP_DMIL_FACTOR 2.0

int ccbp_base_make(struct ccbp *c, const struct hd_ccbp_params *k, uint32_t max_warps, char *err,
                   size_t errlen)
{
    struct ccbp_base *b = &c->base;
    unsigned n = 0;
    if (ccbp_parse_list("smk_quota", k->smk_quota, b->smk_quota, &n, err, errlen) != 0 ||
        ccbp_parse_list("mil", k->mil, b->mil, &n, err, errlen) != 0)
        return -1;
    for (unsigned a = 0; a < CCBP_APPS; a++) {
        b->smk |= k->smk_epoch && b->smk_quota[a];
        b->lim |= b->mil[a] != 0;
    }
    if (k->smk_quota[0] && !k->smk_epoch) {
        snprintf(err, errlen, "[ccbp] smk_quota needs [ccbp] smk_epoch > 0");
        return -1;
    }
    if (k->mil_epoch && !b->lim) {
        snprintf(err, errlen, "[ccbp] mil_epoch needs a [ccbp] mil limit");
        return -1;
    }
    if (!b->smk && !b->lim)
        return 0;
    const size_t na = (size_t)c->nsm * CCBP_APPS;
    b->max_warps = max_warps;
    b->epoch_len = k->smk_epoch;
    b->dmil_epoch = b->lim ? k->mil_epoch : 0;
    if (b->dmil_epoch &&
        (!(b->limit = calloc(na, sizeof *b->limit)) || !(b->area = calloc(na, sizeof *b->area)) ||
         !(b->area_t = calloc(na, sizeof *b->area_t)) ||
         !(b->rets = calloc(na, sizeof *b->rets)) ||
         !(b->ref_lat = calloc(na, sizeof *b->ref_lat)) ||
         !(b->dm_epoch = calloc(c->nsm, sizeof *b->dm_epoch)))) {
        snprintf(err, errlen, "host out of memory creating CCBP's baselines");
        return -1;
    }
    for (size_t i = 0; b->dmil_epoch && i < na; i++)
        b->limit[i] = b->mil[i % CCBP_APPS];
    for (unsigned a = 0; a < CCBP_APPS; a++)
        c->st[a].dmil_min = b->mil[a];
    if (!(b->slot_app = malloc((size_t)c->nsm * max_warps)) ||
        !(b->used = calloc(na, sizeof *b->used)) || !(b->warps = calloc(na, sizeof *b->warps)) ||
        !(b->inflight = calloc(na, sizeof *b->inflight)) ||
        !(b->changed = calloc(na, sizeof *b->changed)) ||
        !(b->epoch = calloc(c->nsm, sizeof *b->epoch))) {
        snprintf(err, errlen, "host out of memory creating CCBP's baselines");
        return -1;
    }
    memset(b->slot_app, CCBP_NO_APP, (size_t)c->nsm * max_warps);
    return 0;
}

void ccbp_base_free(struct ccbp_base *b)
{
    free(b->slot_app);
    free(b->used);
    free(b->warps);
    free(b->inflight);
    free(b->changed);
    free(b->epoch);
    free(b->limit);
    free(b->area);
    free(b->area_t);
    free(b->rets);
    free(b->ref_lat);
    free(b->dm_epoch);
}

/* DMIL: the loads in flight of entry i integrated up to t. */
static void dmil_integrate(struct ccbp_base *b, size_t i, uint64_t t)
{
    if (t > b->area_t[i]) {
        b->area[i] += (uint64_t)b->inflight[i] * (t - b->area_t[i]);
        b->area_t[i] = t;
    }
}

/* DMIL: close SM sm's epochs that ended by now (each application's limit adapts). */
static void dmil_roll(struct ccbp *c, uint32_t sm, uint64_t now)
{
    struct ccbp_base *b = &c->base;
    const uint64_t e = now / b->dmil_epoch;
    if (e == b->dm_epoch[sm])
        return;
    const uint64_t end = b->dm_epoch[sm] * b->dmil_epoch + b->dmil_epoch;
    b->dm_epoch[sm] = e;
    for (unsigned a = 0; a < CCBP_APPS; a++) {
        const size_t i = sm * CCBP_APPS + a;
        if (!b->mil[a])
            continue;
        dmil_integrate(b, i, end);
        if (b->rets[i] >= CCBP_DMIL_MIN_RETS) {
            const double lat = (double)b->area[i] / (double)b->rets[i];
            if (!(b->ref_lat[i] > 0.0) || lat < b->ref_lat[i])
                b->ref_lat[i] = lat;
            if (lat > CCBP_DMIL_FACTOR * b->ref_lat[i]) {
                b->limit[i] = b->limit[i] > 1 ? b->limit[i] / 2 : 1;
                c->st[a].dmil_down++;
            } else if (b->limit[i] < b->mil[a]) {
                b->limit[i]++;
                c->st[a].dmil_up++;
            }
            if (b->limit[i] < c->st[a].dmil_min)
                c->st[a].dmil_min = b->limit[i];
        }
        b->rets[i] = 0; /* (epochs with no event since end: only the current one counts) */
        b->area[i] = (uint64_t)b->inflight[i] * (now - e * b->dmil_epoch);
        b->area_t[i] = now;
    }
}

void ccbp_base_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                          const struct hd_warp_view *v, uint64_t now)
{
    struct ccbp *c = impl;
    struct ccbp_base *b = &c->base;
    (void)now;
    if (sm >= c->nsm || slot >= b->max_warps)
        return;
    uint8_t *sa = &b->slot_app[(size_t)sm * b->max_warps + slot];
    if (ev == HD_HSCHED_ADD) {
        const unsigned a = v ? ccbp_app(c, v->launch) : CCBP_NO_APP;
        if (*sa != CCBP_NO_APP && b->warps[sm * CCBP_APPS + *sa])
            b->warps[sm * CCBP_APPS + *sa]--;
        *sa = (uint8_t)a;
        if (a != CCBP_NO_APP)
            b->warps[sm * CCBP_APPS + a]++;
    } else if (ev == HD_HSCHED_REMOVE) {
        if (*sa != CCBP_NO_APP && b->warps[sm * CCBP_APPS + *sa])
            b->warps[sm * CCBP_APPS + *sa]--;
        *sa = CCBP_NO_APP;
    } else if (ev == HD_HSCHED_ISSUE && *sa != CCBP_NO_APP) {
        b->used[sm * CCBP_APPS + *sa]++;
        c->st[*sa].base_issued++;
    }
}

/* SMK: may application a issue on SM sm? (rolls the epoch, refills when all used theirs) */
static bool smk_hold(struct ccbp *c, uint32_t sm, unsigned a, uint64_t now)
{
    struct ccbp_base *b = &c->base;
    uint32_t *used = &b->used[sm * CCBP_APPS];
    const uint64_t e = now / b->epoch_len;
    if (e != b->epoch[sm]) {
        b->epoch[sm] = e;
        memset(used, 0, CCBP_APPS * sizeof *used);
        b->epochs++;
    }
    if (!b->smk_quota[a] || used[a] < b->smk_quota[a])
        return false;
    for (unsigned o = 0; o < CCBP_APPS; o++)
        if (b->smk_quota[o] && b->warps[sm * CCBP_APPS + o] && used[o] < b->smk_quota[o])
            return true; /* another application still has quota here: wait for it */
    memset(used, 0, CCBP_APPS * sizeof *used); /* every one used its quota: refill */
    b->refills++;
    return false;
}

/* Is the instruction at kernel-wide pc a load Dai18's limit counts (or may count: a generic
 * load goes to global memory unless its addresses are shared)? */
static bool is_load(const struct hd_annot *an, uint32_t pc)
{
    uint32_t lpc;
    const struct hd_annot_fn *f = an ? hd_annot_fn_at(an, pc, &lpc) : NULL;
    if (!f || !f->f.ir || lpc >= f->f.ir->ninstrs)
        return false;
    const struct hd_instr *in = &f->f.ir->instrs[lpc];
    if (in->op != HD_OP_LD && in->op != HD_OP_LDU && in->op != HD_OP_ATOM)
        return false;
    return in->space == HD_SPACE_GLOBAL || in->space == HD_SPACE_LOCAL ||
           in->space == HD_SPACE_NONE;
}

bool ccbp_base_hold(void *impl, uint32_t sm, uint32_t slot, uint32_t cta_slot, uint32_t pc,
                    const struct hd_annot *an, uint64_t now)
{
    struct ccbp *c = impl;
    struct ccbp_base *b = &c->base;
    (void)cta_slot;
    if (sm >= c->nsm || slot >= b->max_warps)
        return false;
    const unsigned a = b->slot_app[(size_t)sm * b->max_warps + slot];
    if (a == CCBP_NO_APP)
        return false;
    if (b->smk && smk_hold(c, sm, a, now)) {
        c->st[a].smk_held++;
        return true;
    }
    const size_t i = sm * CCBP_APPS + a;
    if (b->dmil_epoch)
        dmil_roll(c, sm, now);
    const uint32_t lim = b->dmil_epoch ? b->limit[i] : b->mil[a];
    if (b->mil[a] && b->inflight[i] >= lim && is_load(an, pc)) {
        if (now - b->changed[i] >= CCBP_MIL_STUCK) {
            b->inflight[i] = 0; /* (a lost return: see the header) */
            b->changed[i] = now;
            b->mil_resets++;
            return false;
        }
        c->st[a].mil_held++;
        return true;
    }
    return false;
}

void ccbp_base_load_sent(void *impl, const struct hd_hook_warp *w, uint64_t now)
{
    struct ccbp *c = impl;
    struct ccbp_base *b = &c->base;
    const unsigned a = ccbp_app(c, w->launch);
    if (a == CCBP_NO_APP || w->sm >= c->nsm)
        return;
    const size_t i = w->sm * CCBP_APPS + a;
    if (b->dmil_epoch) {
        dmil_roll(c, w->sm, now);
        dmil_integrate(b, i, now);
    }
    b->inflight[i]++;
    b->changed[i] = now;
    if (b->inflight[i] > c->st[a].mil_max)
        c->st[a].mil_max = b->inflight[i];
}

void ccbp_base_load_returned(void *impl, const struct hd_hook_warp *w, bool l1_hit, uint64_t now)
{
    struct ccbp *c = impl;
    struct ccbp_base *b = &c->base;
    (void)l1_hit;
    const unsigned a = ccbp_app(c, w->launch);
    if (a == CCBP_NO_APP || w->sm >= c->nsm || (w->pc & HD_HOOK_PC_SPILL))
        return;
    const size_t i = w->sm * CCBP_APPS + a;
    if (b->dmil_epoch) {
        dmil_roll(c, w->sm, now);
        dmil_integrate(b, i, now);
        b->rets[i]++;
    }
    if (b->inflight[i]) {
        b->inflight[i]--;
        b->changed[i] = now;
    }
}

void ccbp_base_log(const struct ccbp *c, FILE *f)
{
    const struct ccbp_base *b = &c->base;
    if (!b->smk && !b->lim)
        return;
    fprintf(f, "baselines smk_epoch %" PRIu64 " smk_epochs %" PRIu64 " smk_refills %" PRIu64
               " mil_resets %" PRIu64 " mil_epoch %" PRIu64 "\n",
            b->epoch_len, b->epochs, b->refills, b->mil_resets, b->dmil_epoch);
    for (unsigned a = 0; a < c->napps; a++)
        fprintf(f, "base %u smk_quota %u smk_held %" PRIu64 " issued %" PRIu64 " mil %u mil_held %"
                   PRIu64 " mil_max_inflight %u dmil_down %" PRIu64 " dmil_up %" PRIu64
                   " dmil_min %u\n",
                a + 1, b->smk_quota[a], c->st[a].smk_held, c->st[a].base_issued, b->mil[a],
                c->st[a].mil_held, c->st[a].mil_max, c->st[a].dmil_down, c->st[a].dmil_up,
                c->st[a].dmil_min);
}
