/* SPDX-License-Identifier: MIT
 * exec_video.c - the SIMD video instructions nvcc emits for the CUDA SIMD intrinsics on sm_75:
 * vabsdiff4 / vabsdiff2 (__vabsdiffu4, __vabsdiffu2, __vsadu4, __vsadu2 ...), per-byte or
 * per-half-word absolute differences (PTX ISA "SIMD video instructions").
 *
 * Design: the elements of a and b are the four bytes (vabsdiff4) or two half-words (vabsdiff2)
 * of each operand, sign- or zero-extended by the source type (.atype = .btype here; the front end
 * rejects mixed types and element selectors, so the default selectors a.b3210 / b.b7654 and the
 * full mask apply). Each element's result |a_i - b_i| is, with the secondary merge, optionally
 * clamped to the destination element range (.sat) and written to its element of d; with the
 * secondary accumulate (.add), d = c + the sum of the element results (32-bit wrap). c only
 * feeds elements outside the mask, so with the full mask the merge form ignores it.
 */
#include "exec_impl.h"

/* One lane: n elements of w bits. */
static uint32_t vabsdiff(uint32_t a, uint32_t b, uint32_t c, unsigned n, unsigned w, int sgn,
                         int dsgn, int sat, int add)
{
    const uint32_t em = (1u << w) - 1;
    uint32_t r = 0, sum = 0;
    for (unsigned i = 0; i < n; i++) {
        int64_t va = (int64_t)((a >> (w * i)) & em), vb = (int64_t)((b >> (w * i)) & em);
        if (sgn) {
            va = hd_sext((uint64_t)va, w);
            vb = hd_sext((uint64_t)vb, w);
        }
        int64_t t = va > vb ? va - vb : vb - va;
        if (sat) {
            const int64_t hi = dsgn ? (int64_t)(em >> 1) : (int64_t)em;
            t = t > hi ? hi : t;
        }
        sum += (uint32_t)t;
        r |= ((uint32_t)t & em) << (w * i);
    }
    return add ? c + sum : r;
}

static int x_vabsdiff(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int four = d->op == HD_OP_VABSDIFF4;
    const unsigned n = four ? 4 : 2, w = four ? 8 : 16;
    const int sgn = hd_type_is_signed((enum hd_type)d->type2), dsgn = d->sgn;
    const int sat = (d->ir->flags & HD_F_SAT) != 0, add = d->ir->atom == HD_ATOM_ADD;
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = vabsdiff((uint32_t)HD_V(A, l), (uint32_t)HD_V(B, l), (uint32_t)HD_V(C, l), n, w,
                        sgn, dsgn, sat, add);
    return HD_FUNC_OK;
}

hd_func_exec_fn hd_func_sel_VABSDIFF2(const struct hd_instr *in)
{
    (void)in;
    return x_vabsdiff;
}
hd_func_exec_fn hd_func_sel_VABSDIFF4(const struct hd_instr *in)
{
    (void)in;
    return x_vabsdiff;
}
