/* SPDX-License-Identifier: MIT
 * exec_impl.h - what the semantic handlers share (internal to model/func).
 *
 * Design: a handler gets the per-step context (launch, CTA, warp, register file, trace) and the
 * lane mask, reads sources through hd_lanes views (a register is 32 slots, an immediate one slot
 * read with lane index 0, so the lane loop has no branch on the operand kind) and writes each
 * destination masked to the instruction's width. Every opcode has a selector,
 * hd_func_sel_<OP>(), generated from ptx_ops.def, that picks the handler for the type and
 * modifiers at decode time (NULL: unsupported combination, reported when executed).
 */
#ifndef HD_FUNC_EXEC_IMPL_H
#define HD_FUNC_EXEC_IMPL_H

#include "cta.h"
#include "func_instr.h"
#include "func_status.h"
#include "launch.h"
#include "trace.h"
#include "warp.h"

#include <stdint.h>
#include <string.h>

struct hd_func_exec {
    struct hd_func_launch *l;
    struct hd_func_cta *cta;
    struct hd_func_warp *w;
    const struct hd_func_kernel *k;
    uint64_t *regs;
    struct hd_func_trace *tr;  /* never NULL inside a handler (a scratch record if needed) */
    uint32_t active;           /* SIMT-active lanes before the guard */
    uint32_t pc;
    uint64_t cycle;
    uint64_t tmp[HD_FUNC_MAX_SRCS][32]; /* materialized special registers / negated predicates */
    uint64_t sink[32];                  /* destination `_` */
};

/* {==== Lane iteration and operand access ==== */
#define HD_CAT2_(a, b) a##b
#define HD_CAT_(a, b) HD_CAT2_(a, b)
#define HD_MV_ HD_CAT_(hd_m_, __LINE__)
/* for each set bit l of mask, lowest first (one use per source line). A counted loop with a bit
 * test: its iterations are independent, which beats a find-first-set chain for full warps. */
#define HD_FOR_LANES(mask, l)                                                                      \
    for (uint32_t HD_MV_ = (mask), l = 0; l < 32; l++)                                             \
        if ((HD_MV_ >> l) & 1u)

/* A source operand as 32 lane values (a register's slots, or a broadcast copy in x->tmp). */
/* Run `body` (using lane index l) for the lanes in mask; a full warp gets a loop without the
 * per-lane test. */
#define HD_EACH_LANE(mask, l, body)                                                                \
    do {                                                                                           \
        const uint32_t hd_em_ = (mask);                                                            \
        if (hd_em_ == 0xffffffffu) {                                                               \
            for (uint32_t l = 0; l < 32; l++) {                                                    \
                body                                                                               \
            }                                                                                      \
        } else {                                                                                   \
            for (uint32_t l = 0; l < 32; l++) {                                                    \
                if ((hd_em_ >> l) & 1u) {                                                          \
                    body                                                                           \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

struct hd_lanes {
    const uint64_t *p;
};
#define HD_V(L, l) ((L).p[(l)])

struct hd_lanes hd_func_src_slow(struct hd_func_exec *x, const struct hd_func_instr *d, int i);

static inline struct hd_lanes hd_src(struct hd_func_exec *x, const struct hd_func_instr *d, int i)
{
    const struct hd_func_src *s = &d->src[i];
    if (s->kind == HD_SRC_REG && !s->neg)
        return (struct hd_lanes){x->regs + (size_t)s->reg * 32};
    if (s->kind == HD_SRC_IMM) {
        uint64_t *t = x->tmp[i];
        const uint64_t v = s->imm;
        for (uint32_t l = 0; l < 32; l++)
            t[l] = v;
        return (struct hd_lanes){t};
    }
    return hd_func_src_slow(x, d, i);
}

/* Write r[] to the destination slots of the lanes in mask. */
static inline void hd_store(uint64_t *D, const uint64_t *r, uint32_t mask)
{
    if (mask == 0xffffffffu) {
        memcpy(D, r, 32 * sizeof *r);
        return;
    }
    for (uint32_t l = 0; l < 32; l++)
        if ((mask >> l) & 1u)
            D[l] = r[l];
}

static inline uint64_t *hd_dst(struct hd_func_exec *x, const struct hd_func_instr *d, int i)
{
    return d->dst[i] >= 0 ? x->regs + (size_t)d->dst[i] * 32 : x->sink;
}

static inline int64_t hd_sext(uint64_t v, unsigned bits)
{
    unsigned sh = 64u - bits;
    return (int64_t)(v << sh) >> sh;
}

static inline uint64_t hd_wmask(unsigned bits)
{
    return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}

static inline uint32_t hd_popc32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

static inline float hd_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t hd_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double hd_f64(uint64_t v)
{
    double f;
    memcpy(&f, &v, 8);
    return f;
}
static inline uint64_t hd_f64_bits(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}
/* }==== */

/* {==== Faults and helpers (exec.c) ==== */
/* Write a located report "kernel: <what> by thread (..) of block (..), PC n, file:line" into
 * l->err and return `status`. `lane` < 0 omits the thread. */
int hd_func_fault(struct hd_func_exec *x, const struct hd_func_instr *d, int lane, int status,
                  const char *fmt, ...) HD_FUNC_PRINTF(5, 6);
int hd_func_exec_unsupported(struct hd_func_exec *x, const struct hd_func_instr *d,
                             uint32_t mask);
/* }==== */

/* {==== Selectors, one per opcode (generated list) ==== */
#define HD_OP(id, name, cls) hd_func_exec_fn hd_func_sel_##id(const struct hd_instr *in);
#include "ptx_ops.def"
#undef HD_OP
/* }==== */

/* Handler of a floating-point add/sub/mul/mad/div/min/max/abs/neg (exec_float.c). */
hd_func_exec_fn hd_func_float_sel(const struct hd_instr *in);

/* {==== Shared by the memory and control handlers ==== */
/* Copy `bytes` between a lane's memory at (as, addr) and `buf`; used by call/ret frames. */
int hd_func_mem_access(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t lane,
                       uint8_t as, uint64_t addr, void *buf, unsigned bytes, int store);
/* }==== */

#endif
