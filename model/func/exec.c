/* SPDX-License-Identifier: MIT
 * exec.c - the functional step of one warp: guard, dispatch to the pre-decoded handler, SIMT
 * stack advance, counters and trace; special registers; located fault reports.
 *
 * Design: see exec.h. The step does no allocation and touches only the warp, its CTA and the
 * launch counters. Handlers run with the top SIMT entry already advanced to PC + 1; control
 * handlers overwrite that. After the handler the stack is normalized so that the next PC and
 * mask are ready for a peek, and a warp whose last thread exited is reported to its CTA (which
 * may release a barrier that waited only for it).
 */
#include "exec.h"

#include "exec_impl.h"
#include "module.h"
#include "ptx_parse.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* {==== Special registers and slow operand forms ==== */
static uint64_t hd_func_sreg(struct hd_func_exec *x, uint8_t sreg, uint8_t dim, uint32_t lane)
{
    const struct hd_func_launch *l = x->l;
    const unsigned dm = dim < 3 ? dim : 0;
    switch (sreg) {
    case HD_SREG_TID:
        return x->w->tid[dm][lane];
    case HD_SREG_NTID:
        return l->block[dm];
    case HD_SREG_CTAID:
        return x->cta->ctaid[dm];
    case HD_SREG_NCTAID:
        return l->grid[dm];
    case HD_SREG_LANEID:
        return lane;
    case HD_SREG_WARPID:
        return x->w->id;
    case HD_SREG_NWARPID:
        return l->gpu.max_warps_per_sm;
    case HD_SREG_SMID:
        return x->cta->smid;
    case HD_SREG_NSMID:
        return l->gpu.num_sms;
    case HD_SREG_GRIDID:
        return l->gridid;
    case HD_SREG_CLOCK:
        return x->cycle & 0xffffffffu;
    case HD_SREG_CLOCK64:
    case HD_SREG_GLOBALTIMER:
        return x->cycle;
    case HD_SREG_LANEMASK_EQ:
        return 1ull << lane;
    case HD_SREG_LANEMASK_LT:
        return (1ull << lane) - 1;
    case HD_SREG_LANEMASK_LE:
        return ((2ull << lane) - 1) & 0xffffffffu;
    case HD_SREG_LANEMASK_GT:
        return ~((2ull << lane) - 1) & 0xffffffffu;
    case HD_SREG_LANEMASK_GE:
        return ~((1ull << lane) - 1) & 0xffffffffu;
    case HD_SREG_DYNAMIC_SMEM_SIZE:
        return l->dyn_shared;
    case HD_SREG_TOTAL_SMEM_SIZE:
        return l->smem_bytes;
    default:
        return 0;
    }
}

struct hd_lanes hd_func_src_slow(struct hd_func_exec *x, const struct hd_func_instr *d, int i)
{
    const struct hd_func_src *s = &d->src[i];
    uint64_t *t = x->tmp[i];
    if (s->kind == HD_SRC_SREG) {
        const unsigned dm = s->dim < 3 ? s->dim : 0;
        switch (s->sreg) {
        case HD_SREG_TID: /* the only per-lane ones that matter for speed */
            for (uint32_t l = 0; l < 32; l++)
                t[l] = x->w->tid[dm][l];
            break;
        case HD_SREG_LANEID:
            for (uint32_t l = 0; l < 32; l++)
                t[l] = l;
            break;
        case HD_SREG_LANEMASK_EQ: case HD_SREG_LANEMASK_LT: case HD_SREG_LANEMASK_LE:
        case HD_SREG_LANEMASK_GT: case HD_SREG_LANEMASK_GE:
            for (uint32_t l = 0; l < 32; l++)
                t[l] = hd_func_sreg(x, s->sreg, s->dim, l);
            break;
        default: { /* the same for every lane */
            uint64_t v = hd_func_sreg(x, s->sreg, s->dim, 0);
            for (uint32_t l = 0; l < 32; l++)
                t[l] = v;
            break;
        }
        }
    } else if (s->kind == HD_SRC_REG) { /* negated predicate */
        const uint64_t *r = x->regs + (size_t)s->reg * 32;
        for (uint32_t l = 0; l < 32; l++)
            t[l] = (r[l] & 1u) ^ 1u;
    } else {
        memset(t, 0, 32 * sizeof *t);
    }
    return (struct hd_lanes){t};
}
/* }==== */

/* {==== Faults ==== */
int hd_func_fault(struct hd_func_exec *x, const struct hd_func_instr *d, int lane, int status,
                  const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const struct hd_func_kernel *k = x->k;
    char who[160] = "";
    if (lane >= 0)
        snprintf(who, sizeof who, " by thread (%u,%u,%u) of block (%u,%u,%u)",
                 x->w->tid[0][lane], x->w->tid[1][lane], x->w->tid[2][lane], x->cta->ctaid[0],
                 x->cta->ctaid[1], x->cta->ctaid[2]);
    else
        snprintf(who, sizeof who, " in warp %u of block (%u,%u,%u)", x->w->id, x->cta->ctaid[0],
                 x->cta->ctaid[1], x->cta->ctaid[2]);
    char where[160] = "";
    if (d->func != k->entry)
        snprintf(where, sizeof where, " in function %s", d->func->name);
    snprintf(x->l->err, sizeof x->l->err, "%s: %s%s, PC %u%s, %s:%u", k->entry->name, what, who,
             x->pc, where, k->mod->ir->filename ? k->mod->ir->filename : "<ptx>", d->ir->line);
    return status;
}

int hd_func_exec_unsupported(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    char text[160];
    hd_ptx_format_instr(d->func, d->ir, text, sizeof text);
    return hd_func_fault(x, d, mask ? (int)__builtin_ctz(mask) : -1, HD_FUNC_ERR_UNSUPPORTED,
                         "unsupported instruction '%s'", text);
}
/* }==== */

/* {==== The step ==== */
const struct hd_func_instr *hd_func_warp_peek(const struct hd_func_launch *l,
                                              const struct hd_func_warp *w, uint32_t *active)
{
    uint32_t pc, mask;
    if (!hd_func_warp_next(w, &pc, &mask) || pc >= l->k->ncode)
        return NULL;
    if (active)
        *active = mask;
    return &l->k->code[pc];
}

int hd_func_warp_step(struct hd_func_launch *l, struct hd_func_cta *c, struct hd_func_warp *w,
                      uint64_t cycle, struct hd_func_trace *tr)
{
    struct hd_func_trace scratch;
    struct hd_func_exec x;
    const struct hd_func_kernel *k = l->k;
    if (!tr)
        tr = &scratch;
    if (w->done || w->at_barrier || w->sp == 0) {
        snprintf(l->err, sizeof l->err, "%s: internal: step of warp %u that is %s", k->entry->name,
                 w->id, w->at_barrier ? "waiting at a barrier" : "done");
        return HD_FUNC_ERR_INTERNAL;
    }
    struct hd_func_simt_entry *top = &w->stack[w->sp - 1];
    const uint32_t pc = (uint32_t)top->pc, active = top->mask;
    x.l = l;
    x.cta = c;
    x.w = w;
    x.k = k;
    x.regs = w->regs;
    x.tr = tr;
    x.active = active;
    x.pc = pc;
    x.cycle = cycle;
    if (pc >= k->ncode) {
        snprintf(l->err, sizeof l->err, "%s: warp %u of block (%u,%u,%u) ran past the last instruction",
                 k->entry->name, w->id, c->ctaid[0], c->ctaid[1], c->ctaid[2]);
        return HD_FUNC_ERR_FAULT;
    }
    const struct hd_func_instr *d = &k->code[pc];
    uint32_t mask = active;
    if (d->guard >= 0) {
        const uint64_t *g = w->regs + (size_t)d->guard * 32;
        uint32_t gm = 0;
        for (uint32_t i = 0; i < 32; i++)
            gm |= (uint32_t)(g[i] & 1u) << i;
        mask &= d->guard_neg ? ~gm : gm;
    }
    tr->in = d;
    tr->pc = pc;
    tr->active = active;
    tr->exec = mask;
    tr->flags = 0;
    top->pc = (int32_t)pc + 1;
    if (mask || d->op == HD_OP_BRA) {
        int st = d->exec(&x, d, mask);
        if (st != HD_FUNC_OK)
            return st;
    }
    w->instrs++;
    l->warp_instrs++;
    l->thread_instrs += hd_popc32(mask);
    hd_func_warp_normalize(w);
    if (w->done) {
        tr->flags |= HD_TR_WARP_DONE;
        if (hd_func_cta_warp_done(c, w))
            tr->flags |= HD_TR_BAR_RELEASE;
    }
    tr->next_pc = w->done ? 0xffffffffu : (uint32_t)w->stack[w->sp - 1].pc;
    /* Reported now, in every mode: the timing model would otherwise wait for its watchdog. */
    if (!w->done && tr->next_pc >= k->ncode) {
        snprintf(l->err, sizeof l->err, "%s: warp %u of block (%u,%u,%u) ran past the last "
                 "instruction (after PC %u, %s:%u)", k->entry->name, w->id, c->ctaid[0],
                 c->ctaid[1], c->ctaid[2], pc,
                 k->mod->ir->filename ? k->mod->ir->filename : "<ptx>", d->ir->line);
        return HD_FUNC_ERR_FAULT;
    }
    return HD_FUNC_OK;
}
/* }==== */
