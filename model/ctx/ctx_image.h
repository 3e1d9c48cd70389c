/* SPDX-License-Identifier: MIT
 * ctx_image.h - a saved context as the memory system sees it: where each part of a TB's context
 * goes in global memory (Lin thesis §2.6, Fig 2.12: the per-kernel context control block and
 * the TB's register, shared-memory and SIMT-stack contexts; model/hw/addr_map.h) and the list
 * of requests its save writes and its restore reads, in order (§2.7, Fig 2.13).
 *
 * Design: a save appends requests as its parts become ready: each warp's register record
 * (segments of 128 bytes at the warp's slot, the packer's output in compressed saves, so the
 * engine sends a segment as soon as it is full), each warp's pattern vector (16 bytes per 64
 * registers), then, once every warp's registers are out, the shared memory context, the SIMT
 * stack context and last the CCB entry (three pointers; the register and stack pointers are 0
 * when nothing of them was saved, the shared-memory pointer when the CTA has none). A restore
 * reads the CCB entry first, then the same parts in the same order. The packed segments' words
 * are kept (the data that a restore streams through the unpacker; requests carry no data), with
 * the pattern code of every saved register. Storage is reused from save to save.
 */
#ifndef HD_CTX_IMAGE_H
#define HD_CTX_IMAGE_H

#include "addr_map.h"

#include <stdbool.h>
#include <stdint.h>

/* What a request carries (for the per-part byte counts). */
enum hd_ctx_part { HD_CTXP_REGS, HD_CTXP_PV, HD_CTXP_SMEM, HD_CTXP_STACK, HD_CTXP_CCB,
                   HD_CTXP_COUNT };

struct hd_ctx_req {
    uint64_t addr;
    uint32_t bytes;
    uint8_t part;                /* enum hd_ctx_part */
};

struct hd_ctx_image {
    struct hd_ctx_layout lay;
    uint64_t base;               /* hd_win_context(id) */
    uint64_t ccb;                /* its CCB entry */
    struct hd_ctx_req *rq;       /* the save's requests, in order */
    uint32_t nrq, cap_rq;
    bool final;                  /* every request of the save is known */
    uint64_t part_bytes[HD_CTXP_COUNT];
    uint32_t nwarps;
    uint64_t smem_bytes, stack_bytes;
    uint32_t *warp_segs;         /* [nwarps] register segments written per warp */
    uint32_t *warp_pvs;          /* [nwarps] pattern vectors written per warp */
    uint32_t *rec_seg_end;       /* [nwarps] packed segments up to and including warp w's
                                    record, in record order (0: w has no record) */
    uint32_t cap_warps;
    uint32_t *segw;              /* packed segments, 32 words each, in record order */
    uint32_t nseg, cap_seg;
    uint8_t *pat;                /* [items] pattern code of every saved register */
    uint32_t cap_pat;
};

/* Start a save of nwarps warps at context id `id` of launch `launch`: layout and empty list.
 * max_words: the most 32-bit register words a warp's record can hold. false: host OOM. */
bool hd_ctx_image_begin(struct hd_ctx_image **img, uint64_t launch, uint32_t id, uint32_t nwarps,
                        uint64_t max_words, bool packed, uint64_t smem, uint64_t stack_bytes,
                        uint32_t nitems);
/* Warp w's register record: `bytes` more at its slot (after what it has). */
bool hd_ctx_image_regs(struct hd_ctx_image *m, uint32_t w, uint64_t bytes);
/* A packed segment of warp w (words: 32 words, `used` of them data): kept and written. */
bool hd_ctx_image_segment(struct hd_ctx_image *m, uint32_t w, const uint32_t *words,
                          uint32_t used);
/* A pattern vector of warp w (16 bytes). */
bool hd_ctx_image_pattern(struct hd_ctx_image *m, uint32_t w);
/* The registers are out: shared memory, SIMT stack and the CCB entry; the list is final. */
bool hd_ctx_image_finish(struct hd_ctx_image *m);
/* Total bytes of the save. */
uint64_t hd_ctx_image_bytes(const struct hd_ctx_image *m);
/* Requests of the save or of the restore (the same count: the CCB read comes first). */
static inline uint32_t hd_ctx_image_nreqs(const struct hd_ctx_image *m)
{
    return m->nrq;
}
/* Request i of the save (restore: of the restore). false: not known yet (the packer is behind). */
bool hd_ctx_image_req(const struct hd_ctx_image *m, bool restore, uint32_t i,
                      struct hd_ctx_req *out);
void hd_ctx_image_free(struct hd_ctx_image *m);
/* Room for the pattern codes of nitems saved registers (a save that adds warps as they drain,
 * ctx_wsave.c). false: host OOM. */
bool hd_ctx_image_items(struct hd_ctx_image *m, uint32_t nitems);
/* The shared memory and SIMT stack sizes of a save begun before they were known (the register
 * and pattern-vector areas do not move). */
void hd_ctx_image_tail(struct hd_ctx_image *m, uint64_t smem, uint64_t stack_bytes);
/* The warp whose register record or pattern vector request q writes (from its address in the
 * layout), or UINT32_MAX for the other parts. */
uint32_t hd_ctx_image_req_warp(const struct hd_ctx_image *m, const struct hd_ctx_req *q);

#endif
