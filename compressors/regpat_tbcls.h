/* SPDX-License-Identifier: MIT
 * regpat_tbcls.h - bit-exact, cycle-exact C reference of the TB-level register pattern classifier
 * (Lin thesis §2.3.3 "TB-level compression", Fig 2.11; RTL rtl/regpat_tbcls/regpat_tbcls.sv).
 *
 * What it computes: the warp-level compressor's results for one logical register, one warp per
 * cycle (first_i on the TB's first warp, last_i on its last), form a base vector and a stride
 * vector with one entry per PAG group (TB_size/PAG entries). After the last warp:
 *     dead           every warp's copy is dead
 *     random         some copy is random (or dead while others are live): bypass, spill raw
 *     global uniform strides all zero and the bases all equal             (e.g. a loop counter)
 *     local uniform  strides all zero, bases not all equal                (e.g. ty)
 *     global strided strides all equal and non-zero, the bases an arithmetic progression whose
 *                    step is PAG * stride (one group: always)            (e.g. ty*16+tx)
 *     local strided  otherwise                                            (e.g. tx)
 * This fixes two slips of the thesis text: local uniform tests the *base* vector (the text says
 * "stride vector is not uniform"), and "the stride in the base vector is the same as the stride
 * in the stride vector" must scale by PAG. The buffers of Fig 2.11 (N = 32 entries, against
 * TB_size/PAG up to 128) are not needed to classify: every test is a running comparison against
 * the first entry or the previous one, so the classifier keeps a handful of registers and takes
 * TBs of any size. (Storing the local classes' bases and strides is the context packer's job.)
 *
 * Timing: one warp per cycle; the class is registered and appears one cycle after last_i
 * (valid_o); all outputs are 0 when valid_o is 0. A valid input with first_i, or with no
 * sequence open, starts a new register. Interface: rtl/regpat_tbcls/regpat_tbcls_ports.def.
 */
#ifndef HD_REGPAT_TBCLS_H
#define HD_REGPAT_TBCLS_H

#include "hd_block.h"
#include "regpat_comp.h"

#include <stdbool.h>

enum hd_regpat_tb_class {
    HD_REGPAT_TB_DEAD = 0,
    HD_REGPAT_TB_RANDOM = 1,
    HD_REGPAT_TB_GLOBAL_UNIFORM = 2,
    HD_REGPAT_TB_LOCAL_UNIFORM = 3,
    HD_REGPAT_TB_GLOBAL_STRIDED = 4,
    HD_REGPAT_TB_LOCAL_STRIDED = 5,
    HD_REGPAT_TB_NCLASSES = 6
};

#define HD_PORTS_DEF "regpat_tbcls_ports.def"
#define HD_PORTS_DIR IN
struct hd_regpat_tbcls_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_regpat_tbcls_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_regpat_tbcls_block;

/* "dead", "random", "global-uniform", ... */
const char *hd_regpat_tb_class_name(unsigned cls);

struct hd_regpat_tbcls_state {
    bool open;                   /* a register's sequence is in progress */
    bool have_first, have_step;
    bool base_uni, base_str, stride_uni, stride_zero;
    bool any_rand, any_dead, all_dead;
    uint32_t first_base, prev_base, step, stride0;
    struct hd_regpat_tbcls_out q; /* the output register */
    uint64_t cycle;
};

void hd_regpat_tbcls_ref_reset(struct hd_regpat_tbcls_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_regpat_tbcls_ref_step(struct hd_regpat_tbcls_state *s, const struct hd_regpat_tbcls_in *in,
                              struct hd_regpat_tbcls_out *out);
/* Idle (hw_inst.h): no input and nothing in the output register (an open register's running
 * comparisons only change on a valid input). */
bool hd_regpat_tbcls_ref_idle(const struct hd_regpat_tbcls_state *s,
                              const struct hd_regpat_tbcls_in *in);

#endif
