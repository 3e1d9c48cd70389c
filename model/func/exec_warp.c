/* SPDX-License-Identifier: MIT
 * exec_warp.c - warp-wide operations: shfl(.sync) in its four modes with the clamp/segment
 * operand and the predicate output, vote(.sync) all/any/uni/ballot, activemask, match.any/.all,
 * redux.sync.
 *
 * Design: these read other lanes' registers, so each handler snapshots its sources before it
 * writes (a destination may be its own source). The participating lanes are the executing lanes
 * (and, for the .sync forms, those in each lane's own member mask: the tiles of a
 * cooperative_groups partition pass different masks); a shfl that reads an inactive lane gets
 * that lane's register value (PTX leaves it undefined; the hardware does the same).
 */
#include "exec_impl.h"

/* {==== shfl ==== */
static int x_shfl(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const uint8_t mode = d->ir->mode;
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2);
    uint64_t a[32], r[32];
    uint8_t p[32];
    for (uint32_t l = 0; l < 32; l++)
        a[l] = HD_V(A, l);
    HD_FOR_LANES(mask, l) {
        uint32_t b = (uint32_t)HD_V(B, l) & 31u, c = (uint32_t)HD_V(C, l);
        uint32_t cval = c & 31u, seg = (c >> 8) & 31u;
        uint32_t maxl = (l & seg) | (cval & ~seg), minl = l & seg;
        int32_t j;
        int ok;
        switch (mode) {
        case HD_MODE_SHFL_UP:
            j = (int32_t)l - (int32_t)b;
            ok = j >= (int32_t)maxl;
            break;
        case HD_MODE_SHFL_DOWN:
            j = (int32_t)(l + b);
            ok = j <= (int32_t)maxl;
            break;
        case HD_MODE_SHFL_BFLY:
            j = (int32_t)(l ^ b);
            ok = j <= (int32_t)maxl;
            break;
        default: /* idx */
            j = (int32_t)(minl | (b & ~seg));
            ok = j <= (int32_t)maxl;
            break;
        }
        if (!ok)
            j = (int32_t)l;
        r[l] = a[j & 31];
        p[l] = (uint8_t)ok;
    }
    uint64_t *D = hd_dst(x, d, 0);
    uint64_t *P = d->ndst > 1 ? hd_dst(x, d, 1) : x->sink;
    HD_FOR_LANES(mask, l) {
        D[l] = r[l] & 0xffffffffu;
        P[l] = p[l];
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== vote / activemask / match / redux ==== */
/* Lanes taking part with lane l: the executing lanes, restricted for a .sync form to lane l's
 * member mask (the source operand `member_src`, read per lane: the tiles of a
 * cooperative_groups partition each pass their own mask). */
static uint32_t lane_part(const struct hd_func_instr *d, struct hd_lanes M, int member_src,
                          uint32_t mask, uint32_t l)
{
    if (member_src < 0 || member_src >= d->nsrc)
        return mask;
    return mask & (uint32_t)HD_V(M, l);
}

static int x_vote(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int msrc = (d->ir->flags & HD_F_SYNC) ? 1 : -1;
    struct hd_lanes A = hd_src(x, d, 0), M = msrc >= 0 && msrc < d->nsrc ? hd_src(x, d, msrc) : A;
    uint32_t yes_all = 0;
    HD_FOR_LANES(mask, l)
        if (HD_V(A, l) & 1u)
            yes_all |= 1u << l;
    uint64_t v[32];
    HD_FOR_LANES(mask, l) {
        const uint32_t part = lane_part(d, M, msrc, mask, l), yes = yes_all & part;
        switch (d->ir->mode) {
        case HD_MODE_VOTE_ALL:
            v[l] = yes == part;
            break;
        case HD_MODE_VOTE_ANY:
            v[l] = yes != 0;
            break;
        case HD_MODE_VOTE_UNI:
            v[l] = yes == 0 || yes == part;
            break;
        default: /* ballot */
            v[l] = yes;
            break;
        }
    }
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = v[l];
    return HD_FUNC_OK;
}

static int x_activemask(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = mask;
    return HD_FUNC_OK;
}

/* match.any.sync.b32 d, a, m / match.all.sync.b32 d{|p}, a, m */
static int x_match(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const uint64_t wm = d->wmask;
    struct hd_lanes A = hd_src(x, d, 0), M = d->nsrc > 1 ? hd_src(x, d, 1) : A;
    uint64_t a[32], r[32];
    uint8_t p[32];
    for (uint32_t l = 0; l < 32; l++)
        a[l] = HD_V(A, l) & wm;
    const int all = d->ir->mode == HD_MODE_MATCH_ALL;
    HD_FOR_LANES(mask, l) {
        const uint32_t part = lane_part(d, M, 1, mask, l);
        uint32_t same = 0;
        HD_FOR_LANES(part, k)
            if (a[k] == a[l])
                same |= 1u << k;
        if (all) {
            p[l] = same == part;
            r[l] = same == part ? part : 0;
        } else {
            p[l] = 1;
            r[l] = same;
        }
    }
    uint64_t *D = hd_dst(x, d, 0);
    uint64_t *P = d->ndst > 1 ? hd_dst(x, d, 1) : x->sink;
    HD_FOR_LANES(mask, l) {
        D[l] = r[l];
        P[l] = p[l];
    }
    return HD_FUNC_OK;
}

/* redux.sync.op.type d, a, m: the operation is carried in the atom field (add/min/max/and/or/xor);
 * computed once per distinct member mask. */
static uint64_t redux_over(const struct hd_func_instr *d, struct hd_lanes A, uint32_t part)
{
    const int sgn = hd_type_is_signed((enum hd_type)d->type);
    uint64_t acc = 0;
    int first = 1;
    HD_FOR_LANES(part, l) {
        uint64_t v = HD_V(A, l) & 0xffffffffu;
        if (first) {
            acc = v;
            first = 0;
            continue;
        }
        switch (d->ir->atom) {
        case HD_ATOM_ADD:
            acc = (acc + v) & 0xffffffffu;
            break;
        case HD_ATOM_MIN:
            acc = sgn ? (hd_sext(v, 32) < hd_sext(acc, 32) ? v : acc) : (v < acc ? v : acc);
            break;
        case HD_ATOM_MAX:
            acc = sgn ? (hd_sext(v, 32) > hd_sext(acc, 32) ? v : acc) : (v > acc ? v : acc);
            break;
        case HD_ATOM_AND:
            acc &= v;
            break;
        case HD_ATOM_OR:
            acc |= v;
            break;
        default:
            acc ^= v;
            break;
        }
    }
    return acc;
}

static int x_redux(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0), M = d->nsrc > 1 ? hd_src(x, d, 1) : A;
    uint64_t r[32], acc = 0;
    uint32_t last = 0;
    int have = 0;
    HD_FOR_LANES(mask, l) {
        const uint32_t part = lane_part(d, M, 1, mask, l);
        if (!have || part != last)
            acc = redux_over(d, A, part);
        last = part;
        have = 1;
        r[l] = acc;
    }
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = r[l];
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Selectors ==== */
hd_func_exec_fn hd_func_sel_SHFL(const struct hd_instr *in)
{
    (void)in;
    return x_shfl;
}
hd_func_exec_fn hd_func_sel_VOTE(const struct hd_instr *in)
{
    (void)in;
    return x_vote;
}
hd_func_exec_fn hd_func_sel_ACTIVEMASK(const struct hd_instr *in)
{
    (void)in;
    return x_activemask;
}
hd_func_exec_fn hd_func_sel_MATCH(const struct hd_instr *in)
{
    (void)in;
    return x_match;
}
hd_func_exec_fn hd_func_sel_REDUX(const struct hd_instr *in)
{
    return in->atom == HD_ATOM_NONE ? NULL : x_redux;
}
/* }==== */
