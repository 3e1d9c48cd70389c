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
 *
 * The packer and unpacker (Lin §2.6-2.7; compressors/ctx_packer.h, ctx_unpacker.h) sit behind
 * the two blocks, as in Fig 2.13: a register offered with hd_ctx_codec_offer_save_packed() goes
 * on from the compressor's output straight into the packer (the same cycle: the compressor's
 * outputs are registered), and after a record's last register the codec presents the packer's
 * flush in the next cycle (the offer after a last register is refused for one cycle, so that
 * cycle has no compressor result). hd_ctx_codec_pop_pack() gives the packer's output one cycle
 * later: full segments, the record's last segment, pattern vectors, and the record's end. On the
 * restore path hd_ctx_codec_offer_unpack() presents a segment and/or takes a register (with its
 * pattern code and PAG from the pattern vector) from the unpacker, whose output the same tick
 * hands to the decompressor: hd_ctx_codec_pop_restore() gives the lanes two cycles after the
 * take. The codec keeps the count of buffered words and refuses an offer that would break the
 * unpacker's protocol (a register whose words are not all there, a segment without room).
 * The SM's preemption controller (ctx_ctl.h, "sm<id>.ctx_ctl") lives here too: the engine steps
 * it once per cycle with its status (hd_ctx_codec_ctl_step) and does what its outputs allow.
 * So does the TB-level classifier ("sm<id>.regpat_tbcls", Lin §2.3.3 Fig 2.11; made on first
 * use, by [context] save = compressed_tb only): the engine steps it one warp per cycle
 * (hd_ctx_codec_tb_step; ctx_tb.c).
 */
#ifndef HD_CTX_CODEC_H
#define HD_CTX_CODEC_H

#include "ctx_ctl.h"
#include "ctx_packer.h"
#include "hw_inst.h"
#include "regpat_comp.h"
#include "regpat_tbcls.h"

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
    uint64_t pack_steps, unpack_steps, ctl_steps, tb_steps;
    uint64_t segments, pattern_vectors; /* out of the packer */
};

/* One cycle's output of the packer: a segment (32 words, seg_words of them data; seg_last: the
 * record's last), a pattern vector (pv_n codes), and whether this output is the record's flush
 * (record_end: also when the record was empty). tag: the register that completed the segment
 * or vector, or the record's last register for a flush. */
struct hd_ctx_codec_pack_out {
    uint64_t tag;
    bool seg, seg_last, pv, record_end;
    uint32_t seg_words, pv_n;
    uint32_t seg_data[HD_CTX_SEG_WORDS];
    uint32_t pv_data[4];
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
/* The same, and the compressor's result goes on into the packer; last: the record's last
 * register (its flush follows; the next cycle's offer is refused). */
bool hd_ctx_codec_offer_save_packed(struct hd_ctx_codec *c, const uint32_t lanes[32], bool live,
                                    unsigned pag_sel, uint64_t tag, bool last);
/* The packer's output of a cycle, oldest first (false: none). */
bool hd_ctx_codec_pop_pack(struct hd_ctx_codec *c, struct hd_ctx_codec_pack_out *out);
/* Restore path through the unpacker, once per cycle: seg (32 words, NULL: none) is appended
 * after the register; take: the next register (pattern code pat, PAG select pag_sel, tag) goes
 * to the decompressor; align: the record ends after it. false (nothing done): the protocol
 * would break, or the path is busy this cycle. */
bool hd_ctx_codec_offer_unpack(struct hd_ctx_codec *c, const uint32_t *seg, bool take,
                               unsigned pat, unsigned pag_sel, bool align, uint64_t tag);
/* One cycle of the preemption controller: *out = its outputs this cycle, then it takes the
 * engine's status *in (not stepped while idle: IDLE without start, outputs all 0). tag: the
 * context id shown in waveforms. 0, or -1 with the block's message. */
int hd_ctx_codec_ctl_step(struct hd_ctx_codec *c, const struct hd_ctx_ctl_in *in,
                          struct hd_ctx_ctl_out *out, uint64_t tag, uint64_t now, char *err,
                          size_t errlen);
/* The controller back to IDLE (an operation was abandoned with the run). */
/* One cycle of the TB-level classifier (regpat_tbcls ports; tag: cta, warp, reg, word). An idle
 * input with nothing in the output register is not stepped. Returns 0, or -1 with a message. */
int hd_ctx_codec_tb_step(struct hd_ctx_codec *c, const struct hd_regpat_tbcls_in *in,
                         struct hd_regpat_tbcls_out *out, const uint64_t tag[4], uint64_t now,
                         char *err, size_t errlen);
void hd_ctx_codec_ctl_reset(struct hd_ctx_codec *c);
/* Words the unpacker holds after the offers so far. */
unsigned hd_ctx_codec_unpack_words(const struct hd_ctx_codec *c);
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
