/* SPDX-License-Identifier: MIT
 * ctx_unpacker.h - bit-exact, cycle-exact C reference of the context unpacker, the restore
 * path's mirror of the packer (Lin thesis §2.7 restore: "load the pattern vector, load the
 * compressed stream, decompress each register by pattern"; RTL rtl/ctx_unpacker/ctx_unpacker.sv).
 *
 * What it does per cycle, in this order at the rising edge:
 *   1. valid_i: take the next register's words from the front of a 64-word buffer: their number
 *      follows from the pattern (from the warp's pattern vector) and the PAG select: dead 0,
 *      uniform 32/PAG, strided 2*32/PAG, random 32 (what the compressor stored). The output
 *      register gets them as the decompressor's inputs: uniform base_g = word g; strided
 *      base_g = word 2g, stride_g = word 2g+1; random raw lanes = the 32 words. Taking more
 *      words than are buffered sets the sticky err_o (the missing words read 0).
 *   2. align_i: the warp's record ends: the rest of the current segment (buffered words mod 32,
 *      since segments arrive whole from a segment-aligned record start) is dropped.
 *   3. seg_valid_i: the next 128-byte segment is appended. A segment that does not fit (more
 *      than 32 words still buffered) is dropped and sets err_o.
 * The controller (the SM's context engine) knows every register's size from the pattern vector,
 * so it presents a register only when its words are buffered and a segment only when there is
 * room; err_o and the RTL's assertions catch a controller that does not.
 *
 * Timing: outputs registered, one cycle after the input; valid_o, pat_o, pag_o, base_o,
 * stride_o, raw_o are 0 in a cycle whose valid_o is 0; count_o (words buffered) and err_o
 * always show the state. Interface: rtl/ctx_unpacker/ctx_unpacker_ports.def.
 */
#ifndef HD_CTX_UNPACKER_H
#define HD_CTX_UNPACKER_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "ctx_unpacker_ports.def"
#define HD_PORTS_DIR IN
struct hd_ctx_unpacker_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_ctx_unpacker_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_ctx_unpacker_block;

#define HD_CTX_UNPACK_BUF 64 /* words: two segments */

struct hd_ctx_unpacker_state {
    uint32_t buf[HD_CTX_UNPACK_BUF]; /* words not yet taken, oldest first (0 above cnt) */
    unsigned cnt;
    bool err;
    struct hd_ctx_unpacker_out q;    /* the output register */
    uint64_t cycle;
};

/* Words a register of pattern code pat at PAG select pag_sel occupies in the record. */
unsigned hd_ctx_unpacker_words(unsigned pat, unsigned pag_sel);

void hd_ctx_unpacker_ref_reset(struct hd_ctx_unpacker_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_ctx_unpacker_ref_step(struct hd_ctx_unpacker_state *s, const struct hd_ctx_unpacker_in *in,
                              struct hd_ctx_unpacker_out *out);
/* Idle (hw_inst.h): no input, no valid output, an empty buffer and no error (then the outputs
 * are all zero and a step changes nothing). */
bool hd_ctx_unpacker_ref_idle(const struct hd_ctx_unpacker_state *s,
                              const struct hd_ctx_unpacker_in *in);

#endif
