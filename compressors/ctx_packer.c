/* SPDX-License-Identifier: MIT
 * ctx_packer.c - the context packer's C reference (ctx_packer.h).
 *
 * Design: the state is the RTL's registers (64-word buffer and its count, the pattern vector
 * and its count, the output register); one step computes the next output register from the
 * state and the input, as the RTL's combinational logic does, then updates the state.
 */
#include "ctx_packer.h"

#include "regpat_comp.h"

#include <string.h>

#define HD_PORTS_DEF "ctx_packer_ports.def"
#define HD_PORTS_IN_T struct hd_ctx_packer_in
#define HD_PORTS_OUT_T struct hd_ctx_packer_out
#define HD_PORTS_BLOCK_VAR hd_ctx_packer_block
#include "hd_ports_table.h"

unsigned hd_ctx_packer_chunk(const struct hd_ctx_packer_in *in, uint32_t chunk[32])
{
    memset(chunk, 0, 32 * sizeof *chunk);
    unsigned n = (unsigned)(in->words_i & 63u);
    n = n > 32 ? 32 : n;
    switch (in->pat_i & 3u) {
    case HD_REGPAT_RANDOM:
        memcpy(chunk, in->raw_i, 32 * sizeof *chunk);
        break;
    case HD_REGPAT_STRIDED:
        for (unsigned g = 0; g < HD_REGPAT_MAX_GROUPS; g++) {
            chunk[2 * g] = in->base_i[g];
            chunk[2 * g + 1] = in->stride_i[g];
        }
        break;
    case HD_REGPAT_UNIFORM:
        for (unsigned g = 0; g < HD_REGPAT_MAX_GROUPS; g++)
            chunk[g] = in->base_i[g];
        break;
    default:
        break;
    }
    for (unsigned i = n; i < 32; i++) /* only the stored words enter the buffer */
        chunk[i] = 0;
    return n;
}

void hd_ctx_packer_ref_reset(struct hd_ctx_packer_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_ctx_packer_block, HD_DIR_OUT, &s->q);
}

void hd_ctx_packer_ref_step(struct hd_ctx_packer_state *s, const struct hd_ctx_packer_in *in_raw,
                            struct hd_ctx_packer_out *out)
{
    *out = s->q;
    struct hd_ctx_packer_in in = *in_raw;
    hd_block_clamp(&hd_ctx_packer_block, HD_DIR_IN, &in);
    struct hd_ctx_packer_out q;
    memset(&q, 0, sizeof q);
    if (in.valid_i & 1u) {
        uint32_t chunk[32];
        unsigned n = hd_ctx_packer_chunk(&in, chunk);
        for (unsigned i = 0; i < n; i++)
            s->buf[s->cnt + i] = chunk[i];
        s->cnt += n;
        if (s->cnt >= HD_CTX_SEG_WORDS) {
            q.seg_valid_o = 1;
            q.seg_words_o = HD_CTX_SEG_WORDS;
            memcpy(q.seg_o, s->buf, sizeof q.seg_o);
            memmove(s->buf, s->buf + HD_CTX_SEG_WORDS, HD_CTX_SEG_WORDS * sizeof *s->buf);
            memset(s->buf + HD_CTX_SEG_WORDS, 0, HD_CTX_SEG_WORDS * sizeof *s->buf);
            s->cnt -= HD_CTX_SEG_WORDS;
        }
        s->pv[s->pvn / 16] |= (uint32_t)(in.pat_i & 3u) << (2 * (s->pvn % 16));
        if (++s->pvn == HD_CTX_PV_REGS) {
            q.pv_valid_o = 1;
            q.pv_n_o = HD_CTX_PV_REGS;
            memcpy(q.pv_o, s->pv, sizeof q.pv_o);
            memset(s->pv, 0, sizeof s->pv);
            s->pvn = 0;
        }
    } else if (in.flush_i & 1u) {
        if (s->cnt) {
            q.seg_valid_o = 1;
            q.seg_words_o = s->cnt;
            q.seg_last_o = 1;
            memcpy(q.seg_o, s->buf, sizeof q.seg_o);
        }
        if (s->pvn) {
            q.pv_valid_o = 1;
            q.pv_n_o = s->pvn;
            memcpy(q.pv_o, s->pv, sizeof q.pv_o);
        }
        memset(s->buf, 0, sizeof s->buf);
        memset(s->pv, 0, sizeof s->pv);
        s->cnt = s->pvn = 0;
    }
    s->q = q;
    s->cycle++;
}

bool hd_ctx_packer_ref_idle(const struct hd_ctx_packer_state *s, const struct hd_ctx_packer_in *in)
{
    return !(in->valid_i & 1u) && !(in->flush_i & 1u) && !(s->q.seg_valid_o & 1u) &&
           !(s->q.pv_valid_o & 1u);
}
