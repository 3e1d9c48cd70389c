/* SPDX-License-Identifier: MIT
 * ctx_image.c - a saved context's requests in Lin's layout (ctx_image.h).
 */
#include "ctx_image.h"

#include <stdlib.h>
#include <string.h>

static bool grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

bool hd_ctx_image_begin(struct hd_ctx_image **img, uint64_t launch, uint32_t id, uint32_t nwarps,
                        uint64_t max_words, bool packed, uint64_t smem, uint64_t stack_bytes,
                        uint32_t nitems)
{
    struct hd_ctx_image *m = *img;
    if (!m) {
        m = calloc(1, sizeof *m);
        if (!m)
            return false;
        *img = m;
    }
    m->lay = hd_ctx_layout_make(nwarps, max_words, packed, smem, stack_bytes);
    m->base = hd_win_context(id);
    m->ccb = hd_win_ccb_entry(launch, id);
    m->nrq = m->nseg = 0;
    m->final = false;
    memset(m->part_bytes, 0, sizeof m->part_bytes);
    m->nwarps = nwarps;
    m->smem_bytes = smem;
    m->stack_bytes = stack_bytes;
    uint32_t cw = m->cap_warps;
    if (!grow((void **)&m->warp_segs, &cw, nwarps, sizeof *m->warp_segs))
        return false;
    cw = m->cap_warps;
    if (!grow((void **)&m->warp_pvs, &cw, nwarps, sizeof *m->warp_pvs))
        return false;
    cw = m->cap_warps;
    if (!grow((void **)&m->rec_seg_end, &cw, nwarps, sizeof *m->rec_seg_end))
        return false;
    m->cap_warps = cw;
    memset(m->warp_segs, 0, nwarps * sizeof *m->warp_segs);
    memset(m->warp_pvs, 0, nwarps * sizeof *m->warp_pvs);
    memset(m->rec_seg_end, 0, nwarps * sizeof *m->rec_seg_end);
    return grow((void **)&m->pat, &m->cap_pat, nitems ? nitems : 1, sizeof *m->pat);
}

static bool push(struct hd_ctx_image *m, enum hd_ctx_part part, uint64_t addr, uint32_t bytes)
{
    if (!grow((void **)&m->rq, &m->cap_rq, m->nrq + 1, sizeof *m->rq))
        return false;
    m->rq[m->nrq++] = (struct hd_ctx_req){addr, bytes, (uint8_t)part};
    m->part_bytes[part] += bytes;
    return true;
}

/* Append `bytes` of part `part` at offset `off` of the context area (or absolute with
 * part CCB), split into 128-byte requests. false: host OOM. */
static bool hd_ctx_image_write(struct hd_ctx_image *m, enum hd_ctx_part part, uint64_t off,
                               uint64_t bytes)
{
    const uint64_t base = part == HD_CTXP_CCB ? 0 : m->base;
    for (uint64_t d = 0; d < bytes; d += 128) {
        const uint64_t n = bytes - d < 128 ? bytes - d : 128;
        if (!push(m, part, base + off + d, (uint32_t)n))
            return false;
    }
    return true;
}

bool hd_ctx_image_regs(struct hd_ctx_image *m, uint32_t w, uint64_t bytes)
{
    const uint64_t off = m->lay.regs + w * m->lay.slot_bytes + 128ull * m->warp_segs[w];
    m->warp_segs[w] += (uint32_t)((bytes + 127) / 128);
    return hd_ctx_image_write(m, HD_CTXP_REGS, off, bytes);
}

bool hd_ctx_image_segment(struct hd_ctx_image *m, uint32_t w, const uint32_t *words,
                          uint32_t used)
{
    if (!grow((void **)&m->segw, &m->cap_seg, 32 * (m->nseg + 1), sizeof *m->segw))
        return false;
    memcpy(m->segw + 32 * (size_t)m->nseg, words, 32 * sizeof *words);
    m->nseg++;
    m->rec_seg_end[w] = m->nseg; /* segments up to and including its record, in record order
                                    (warp order, or the order the warps were drained) */
    return hd_ctx_image_regs(m, w, 4ull * used);
}

bool hd_ctx_image_pattern(struct hd_ctx_image *m, uint32_t w)
{
    const uint64_t off = m->lay.pv + w * m->lay.pv_bytes + 16ull * m->warp_pvs[w]++;
    return push(m, HD_CTXP_PV, m->base + off, 16);
}

bool hd_ctx_image_finish(struct hd_ctx_image *m)
{
    if (!hd_ctx_image_write(m, HD_CTXP_SMEM, m->lay.smem, m->smem_bytes))
        return false;
    if (!hd_ctx_image_write(m, HD_CTXP_STACK, m->lay.stack, m->stack_bytes))
        return false;
    if (!push(m, HD_CTXP_CCB, m->ccb, HD_CCB_ENTRY_BYTES))
        return false;
    m->final = true;
    return true;
}

uint64_t hd_ctx_image_bytes(const struct hd_ctx_image *m)
{
    uint64_t b = 0;
    for (unsigned p = 0; p < HD_CTXP_COUNT; p++)
        b += m->part_bytes[p];
    return b;
}

bool hd_ctx_image_req(const struct hd_ctx_image *m, bool restore, uint32_t i,
                      struct hd_ctx_req *out)
{
    if (!restore) {
        if (i >= m->nrq)
            return false;
        *out = m->rq[i];
        return true;
    }
    if (!m->final || i >= m->nrq)
        return false;
    *out = i == 0 ? m->rq[m->nrq - 1] : m->rq[i - 1]; /* the CCB entry first */
    return true;
}

uint32_t hd_ctx_image_req_warp(const struct hd_ctx_image *m, const struct hd_ctx_req *q)
{
    if (q->part == HD_CTXP_REGS && m->lay.slot_bytes)
        return (uint32_t)((q->addr - m->base - m->lay.regs) / m->lay.slot_bytes);
    if (q->part == HD_CTXP_PV && m->lay.pv_bytes)
        return (uint32_t)((q->addr - m->base - m->lay.pv) / m->lay.pv_bytes);
    return UINT32_MAX;
}

bool hd_ctx_image_items(struct hd_ctx_image *m, uint32_t nitems)
{
    return grow((void **)&m->pat, &m->cap_pat, nitems ? nitems : 1, sizeof *m->pat);
}

void hd_ctx_image_tail(struct hd_ctx_image *m, uint64_t smem, uint64_t stack_bytes)
{
    const uint64_t max_words = m->lay.slot_bytes / 128;
    m->lay = hd_ctx_layout_make(m->nwarps, max_words, m->lay.pv_bytes != 0, smem, stack_bytes);
    m->smem_bytes = smem;
    m->stack_bytes = stack_bytes;
}

void hd_ctx_image_free(struct hd_ctx_image *m)
{
    if (!m)
        return;
    free(m->rq);
    free(m->warp_segs);
    free(m->warp_pvs);
    free(m->rec_seg_end);
    free(m->segw);
    free(m->pat);
    free(m);
}
