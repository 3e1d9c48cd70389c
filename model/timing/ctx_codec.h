/* SPDX-License-Identifier: MIT
 * ctx_codec.h - the register pattern codec of one SM inside the timing loop (Lin thesis §2.3.3,
 * Fig 2.10): the context save path's compressor (regpat_comp: 2-cycle pipeline, one 32-lane
 * vector register per cycle) and the restore path's decompressor (regpat_decomp: 1 cycle),
 * stepped on the model clock by the save/restore engine (issue 11 items 4 and 6).
 *
 * Design: the two blocks are instances made through a block factory (model/hw/hw_inst.h): the C
 * references by default, or co-simulated with their RTL (cosim/cosim_hw.h), in which case a
 * mismatch or a failed assertion makes hd_ctx_codec_tick() fail, and `--drive rtl` makes the
 * RTL's outputs the ones the model stores and restores. Per cycle the engine offers at most one
 * register to each path, calls hd_ctx_codec_tick() once, and pops results: a register offered
 * to the save path in cycle t can be popped after the tick of cycle t + 2 (the compressor's
 * latency), one offered to the restore path after the tick of t + 1. The compressor gives the
 * pattern, base/stride per group and the words stored; the codec adds the raw lanes of random
 * registers (the RTL's bypass) so that the packed form is everything a restore needs. Blocks
 * with no work are not stepped (hw_inst.h's idle contract); hd_ctx_codec_idle() is false while
 * anything is offered, in a pipeline or waiting to be popped, so the owner keeps its SM awake.
 * Results leave each path in order, with the tag they were offered with.
 */
#ifndef HD_CTX_CODEC_H
#define HD_CTX_CODEC_H

#include "hw_inst.h"
#include "regpat_comp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A saved register as stored: pattern code (enum hd_regpat_code: dead, uniform, strided,
 * random), the PAG select it was analysed with, the words stored (dead 0, uniform 32/PAG,
 * strided 64/PAG, random 32), group bases and strides (words g < 32/PAG) and, for random
 * registers only, the raw lanes (else 0). */
struct hd_ctx_codec_packed {
    uint8_t pat;
    uint8_t pag_sel;
    uint8_t words;
    uint32_t base[HD_REGPAT_MAX_GROUPS];
    uint32_t stride[HD_REGPAT_MAX_GROUPS];
    uint32_t raw[HD_REGPAT_LANES];
};

struct hd_ctx_codec_stats {
    uint64_t saves, restores;         /* registers through each path */
    uint64_t pat[4];                  /* saved registers by pattern code */
    uint64_t words;                   /* 32-bit words stored by the save path */
    uint64_t comp_steps, decomp_steps; /* cycles in which each block was stepped (not idle) */
};

struct hd_ctx_codec;

/* The codec of SM sm_id: instances "sm<id>.regpat_comp" and "sm<id>.regpat_decomp" from f.
 * NULL with a message. */
struct hd_ctx_codec *hd_ctx_codec_create(const struct hd_hw_factory *f, uint32_t sm_id, char *err,
                                         size_t errlen);
void hd_ctx_codec_destroy(struct hd_ctx_codec *c);

/* Offer one register (lanes[32], live or dead, PAG select 0/1/2 = 8/16/32 lanes) to the save
 * path this cycle. false: the input is taken this cycle (one per cycle) or the results wait to
 * be popped (8 kept per path). */
bool hd_ctx_codec_offer_save(struct hd_ctx_codec *c, const uint32_t lanes[32], bool live,
                             unsigned pag_sel, uint64_t tag);
/* Offer a packed register (as hd_ctx_codec_pop_save() gave it) to the restore path. */
bool hd_ctx_codec_offer_restore(struct hd_ctx_codec *c, const struct hd_ctx_codec_packed *p,
                                uint64_t tag);
/* One model cycle `now` (increasing between calls): steps the blocks that have work. Returns 0,
 * or -1 with the block's located message (co-simulation mismatch, failed assertion). */
int hd_ctx_codec_tick(struct hd_ctx_codec *c, uint64_t now, char *err, size_t errlen);
/* The oldest finished result of each path (false: none). */
bool hd_ctx_codec_pop_save(struct hd_ctx_codec *c, struct hd_ctx_codec_packed *out, uint64_t *tag);
bool hd_ctx_codec_pop_restore(struct hd_ctx_codec *c, uint32_t lanes[32], uint64_t *tag);
/* Nothing offered, in flight or waiting to be popped. */
bool hd_ctx_codec_idle(const struct hd_ctx_codec *c);
/* The earliest cycle > now at which a tick can change something: now + 1 while a block has work
 * or a result waits, UINT64_MAX when idle (for the GPU's idle-cycle skipping). */
uint64_t hd_ctx_codec_next_event(const struct hd_ctx_codec *c, uint64_t now);
const struct hd_ctx_codec_stats *hd_ctx_codec_stats(const struct hd_ctx_codec *c);

/* A tag whose fields the waveforms show by name (the blocks' HD_TAG rows cta, warp, reg, word):
 * cta in bits 63..32, warp 31..24, reg 23..8, word 7..0. Any other 64-bit tag works too. */
static inline uint64_t hd_ctx_codec_tag_make(uint32_t cta, uint32_t warp, uint32_t reg,
                                             uint32_t word)
{
    return ((uint64_t)cta << 32) | ((uint64_t)(warp & 0xffu) << 24) |
           ((uint64_t)(reg & 0xffffu) << 8) | (word & 0xffu);
}

#endif
