/* SPDX-License-Identifier: MIT
 * ctx_unpacker.c - the context unpacker's C reference (ctx_unpacker.h).
 *
 * Design: the state is the RTL's registers (the 64-word buffer, its count, the sticky error and
 * the output register); one step takes the register, aligns, appends the segment, in the order
 * the RTL's combinational logic does.
 */
#include "ctx_unpacker.h"

#include "regpat_comp.h"

#include <string.h>

#define HD_PORTS_DEF "ctx_unpacker_ports.def"
#define HD_PORTS_IN_T struct hd_ctx_unpacker_in
#define HD_PORTS_OUT_T struct hd_ctx_unpacker_out
#define HD_PORTS_BLOCK_VAR hd_ctx_unpacker_block
#include "hd_ports_table.h"

unsigned hd_ctx_unpacker_words(unsigned pat, unsigned pag_sel)
{
    const unsigned groups = HD_REGPAT_LANES / hd_regpat_pag_lanes(pag_sel & 3u);
    switch (pat & 3u) {
    case HD_REGPAT_UNIFORM:
        return groups;
    case HD_REGPAT_STRIDED:
        return 2 * groups;
    case HD_REGPAT_RANDOM:
        return HD_REGPAT_LANES;
    default:
        return 0;
    }
}

void hd_ctx_unpacker_ref_reset(struct hd_ctx_unpacker_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_ctx_unpacker_block, HD_DIR_OUT, &s->q);
}

static void drop_front(struct hd_ctx_unpacker_state *s, unsigned n)
{
    n = n > s->cnt ? s->cnt : n;
    memmove(s->buf, s->buf + n, (HD_CTX_UNPACK_BUF - n) * sizeof *s->buf);
    memset(s->buf + HD_CTX_UNPACK_BUF - n, 0, n * sizeof *s->buf);
    s->cnt -= n;
}

void hd_ctx_unpacker_ref_step(struct hd_ctx_unpacker_state *s,
                              const struct hd_ctx_unpacker_in *in_raw,
                              struct hd_ctx_unpacker_out *out)
{
    *out = s->q;
    struct hd_ctx_unpacker_in in = *in_raw;
    hd_block_clamp(&hd_ctx_unpacker_block, HD_DIR_IN, &in);
    struct hd_ctx_unpacker_out q;
    memset(&q, 0, sizeof q);
    if (in.valid_i & 1u) {
        const unsigned pat = (unsigned)(in.pat_i & 3u), pag = (unsigned)(in.pag_i & 3u);
        const unsigned n = hd_ctx_unpacker_words(pat, pag);
        const unsigned groups = HD_REGPAT_LANES / hd_regpat_pag_lanes(pag);
        q.valid_o = 1;
        q.pat_o = pat;
        q.pag_o = pag;
        if (pat == HD_REGPAT_RANDOM) {
            memcpy(q.raw_o, s->buf, sizeof q.raw_o);
        } else if (pat == HD_REGPAT_STRIDED) {
            for (unsigned g = 0; g < groups; g++) {
                q.base_o[g] = s->buf[2 * g];
                q.stride_o[g] = s->buf[2 * g + 1];
            }
        } else if (pat == HD_REGPAT_UNIFORM) {
            for (unsigned g = 0; g < groups; g++)
                q.base_o[g] = s->buf[g];
        }
        if (n > s->cnt)
            s->err = true;
        drop_front(s, n);
    }
    if (in.align_i & 1u)
        drop_front(s, s->cnt % 32u);
    if (in.seg_valid_i & 1u) {
        if (s->cnt > HD_CTX_UNPACK_BUF - 32u) {
            s->err = true;
        } else {
            memcpy(s->buf + s->cnt, in.seg_i, 32 * sizeof *s->buf);
            s->cnt += 32;
        }
    }
    q.count_o = s->cnt;
    q.err_o = s->err;
    s->q = q;
    s->cycle++;
}

bool hd_ctx_unpacker_ref_idle(const struct hd_ctx_unpacker_state *s,
                              const struct hd_ctx_unpacker_in *in)
{
    return !(in->valid_i & 1u) && !(in->align_i & 1u) && !(in->seg_valid_i & 1u) &&
           !(s->q.valid_o & 1u) && s->cnt == 0 && !s->err && s->q.count_o == 0;
}
