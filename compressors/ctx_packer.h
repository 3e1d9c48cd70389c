/* SPDX-License-Identifier: MIT
 * ctx_packer.h - bit-exact, cycle-exact C reference of the context packer (Lin thesis §2.6-2.7,
 * Fig 2.12/2.13: "push the compressed words into a buffer that packs them into 128 B segments";
 * RTL rtl/ctx_packer/ctx_packer.sv).
 *
 * What it does per cycle. A presented register (the warp-level compressor's result) becomes a
 * chunk of words_i 32-bit words (at most 32): uniform base_0..base_{G-1}; strided base_0,
 * stride_0, base_1, stride_1, ...; random the 32 raw lanes; dead none. The chunk is appended to
 * a 64-word buffer (two segments: a 32-word chunk that straddles a segment boundary always fits,
 * so the packer never stalls); when the buffer holds 32 words or more, the first 32 leave as a
 * 128-byte segment. The register's 2-bit code is appended to the warp's pattern vector (entry k
 * = the k-th register of the record, bits [2k+1:2k]); 64 entries make a full 128-bit vector,
 * which leaves at once. flush_i (the warp's last register has been presented) sends the partial
 * segment (seg_words_o < 32, the rest zero, seg_last_o) and the partial pattern vector, and
 * clears both, so every warp's record starts on a segment boundary (Lin: each warp has its own
 * slot in the register context, its compressed values contiguous from the slot's start).
 * flush_i with valid_i is a protocol error (the RTL asserts it; the register is packed and the
 * flush ignored). A flush of an empty record sends nothing.
 *
 * Timing: one register per cycle, outputs registered one cycle after the input, all zero in a
 * cycle with neither valid output. Interface: rtl/ctx_packer/ctx_packer_ports.def.
 */
#ifndef HD_CTX_PACKER_H
#define HD_CTX_PACKER_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_CTX_SEG_WORDS 32   /* a 128-byte segment */
#define HD_CTX_PV_REGS 64     /* registers per 128-bit pattern vector */

#define HD_PORTS_DEF "ctx_packer_ports.def"
#define HD_PORTS_DIR IN
struct hd_ctx_packer_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_ctx_packer_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_ctx_packer_block;

struct hd_ctx_packer_state {
    uint32_t buf[2 * HD_CTX_SEG_WORDS]; /* words not yet sent, oldest first */
    unsigned cnt;                        /* words in buf (< 32 between cycles) */
    uint32_t pv[4];                      /* the pattern vector being filled */
    unsigned pvn;                        /* its entries (< 64 between cycles) */
    struct hd_ctx_packer_out q;          /* the output register */
    uint64_t cycle;
};

/* The words a register stores, in record order, into chunk[32]; returns their number. */
unsigned hd_ctx_packer_chunk(const struct hd_ctx_packer_in *in, uint32_t chunk[32]);

void hd_ctx_packer_ref_reset(struct hd_ctx_packer_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_ctx_packer_ref_step(struct hd_ctx_packer_state *s, const struct hd_ctx_packer_in *in,
                            struct hd_ctx_packer_out *out);
/* Idle (hw_inst.h): no input, nothing in the output register. The buffer may hold words: they
 * wait for the next register or flush without changing anything. */
bool hd_ctx_packer_ref_idle(const struct hd_ctx_packer_state *s, const struct hd_ctx_packer_in *in);

#endif
