/* SPDX-License-Identifier: MIT
 * bench_regalloc.c - how long the per-kernel compiler passes take at module load: CFG,
 * liveness and register allocation, on every PTX function of the tree (tests/ptx/good and
 * workloads) and on synthetic kernels of 1000 to 8000 instructions made by chaining copies of the
 * largest workload kernel (registers renamed per copy, the exit of each copy turned into a branch
 * to the next). Reports the best of several runs, in milliseconds, and the peak per kernel.
 * Run from the source directory (the bench_regalloc_run target does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cfg.h"
#include "liveness.h"
#include "ptx_corpus.h"
#include "regalloc.h"

#define REPEAT 20

struct timing {
    double cfg, live, ra;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: steadier on a shared machine */
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int time_func(const struct hd_func *f, struct timing *best, uint32_t *regs)
{
    char err[512];
    best->cfg = best->live = best->ra = 1e30;
    for (int it = 0; it < REPEAT; it++) {
        double t0 = now_ms();
        struct hd_cfg *cfg = hd_cfg_build(f);
        double t1 = now_ms();
        struct hd_liveness *lv = cfg ? hd_liveness_build(f, cfg, err, sizeof(err)) : NULL;
        double t2 = now_ms();
        struct hd_regalloc ra;
        int rc = lv ? hd_regalloc_run(f, cfg, lv, NULL, &ra, err, sizeof(err)) : -1;
        double t3 = now_ms();
        if (rc) {
            fprintf(stderr, "bench_regalloc: %s: %s\n", f->name, err);
            hd_liveness_free(lv);
            hd_cfg_free(cfg);
            return -1;
        }
        *regs = ra.regs_per_thread;
        best->cfg = t1 - t0 < best->cfg ? t1 - t0 : best->cfg;
        best->live = t2 - t1 < best->live ? t2 - t1 : best->live;
        best->ra = t3 - t2 < best->ra ? t3 - t2 : best->ra;
        hd_regalloc_free(&ra);
        hd_liveness_free(lv);
        hd_cfg_free(cfg);
    }
    return 0;
}

struct corpus {
    double total, worst;
    unsigned n;
    uint32_t largest; /* instructions of the largest call-free workload kernel */
    char largest_path[512];
};

static int one(void *ctx, const char *path, const struct hd_func *f)
{
    struct corpus *c = ctx;
    struct timing t;
    uint32_t regs = 0;
    if (time_func(f, &t, &regs))
        return -1;
    double sum = t.cfg + t.live + t.ra;
    c->total += sum;
    c->n++;
    if (sum > c->worst)
        c->worst = sum;
    if (strncmp(path, "workloads/", 10) == 0 && f->is_entry && f->ncalls == 0 &&
        f->ninstrs > c->largest) {
        c->largest = f->ninstrs;
        snprintf(c->largest_path, sizeof(c->largest_path), "%s", path);
    }
    printf("  %-40s %-28.28s %5u instrs  cfg %.3f  liveness %.3f  regalloc %.3f ms  (%u regs)\n",
           path, f->name, f->ninstrs, t.cfg, t.live, t.ra, regs);
    return 0;
}

/* k chained copies of f (registers renamed per copy). */
static struct hd_func *chain(const struct hd_func *f, uint32_t k)
{
    struct hd_func *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    *g = *f;
    g->ninstrs = f->ninstrs * k;
    g->nregs = f->nregs * k;
    g->instrs = malloc((size_t)g->ninstrs * sizeof(struct hd_instr));
    g->regs = malloc((size_t)g->nregs * sizeof(struct hd_reg));
    if (!g->instrs || !g->regs) {
        free(g->instrs), free(g->regs), free(g);
        return NULL;
    }
    for (uint32_t c = 0; c < k; c++) {
        memcpy(g->regs + (size_t)c * f->nregs, f->regs, f->nregs * sizeof(struct hd_reg));
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            struct hd_instr *in = &g->instrs[(size_t)c * f->ninstrs + i];
            *in = f->instrs[i];
            int32_t ro = (int32_t)(c * f->nregs);
            if (in->guard >= 0)
                in->guard += ro;
            for (unsigned o = 0; o < in->nopnds && o < HD_MAX_OPERANDS; o++) {
                struct hd_operand *op = &in->opnd[o];
                if (op->reg >= 0 && (op->kind == HD_OPND_REG || op->kind == HD_OPND_ADDR))
                    op->reg += ro;
                for (unsigned e = 0; op->kind == HD_OPND_VEC && e < op->vec_n && e < 4; e++)
                    if (op->vec[e] >= 0)
                        op->vec[e] += ro;
                if (op->kind == HD_OPND_LABEL)
                    op->imm += (int64_t)c * f->ninstrs;
            }
            bool last = c + 1 == k;
            if (!last && in->guard < 0 && (in->op == HD_OP_RET || in->op == HD_OP_EXIT)) {
                in->op = HD_OP_BRA;
                in->nopnds = 1;
                memset(&in->opnd[0], 0, sizeof(in->opnd[0]));
                in->opnd[0].kind = HD_OPND_LABEL;
                in->opnd[0].reg = in->opnd[0].symbol = -1;
                in->opnd[0].imm = (int64_t)(c + 1) * f->ninstrs;
            }
        }
    }
    return g;
}

int main(void)
{
    struct corpus c = { 0 };
    unsigned nfuncs = 0;
    printf("compiler passes per function (best of %d runs)\n", REPEAT);
    if (hd_ptx_corpus_each(one, &c, &nfuncs))
        return 1;
    printf("%u functions: total %.2f ms, mean %.3f ms, worst %.3f ms\n", c.n, c.total,
           c.n ? c.total / c.n : 0.0, c.worst);
    if (!c.largest_path[0])
        return 0;
    char err[512];
    struct hd_module *m = hd_ptx_parse_file(c.largest_path, err, sizeof(err));
    if (!m) {
        fprintf(stderr, "bench_regalloc: %s\n", err);
        return 1;
    }
    const struct hd_func *big = NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && m->funcs[i].ncalls == 0 &&
            (!big || m->funcs[i].ninstrs > big->ninstrs))
            big = &m->funcs[i];
    printf("chained copies of %s (%s, %u instructions):\n", big->name, c.largest_path,
           big->ninstrs);
    for (uint32_t target = 1000; target <= 8000; target *= 2) {
        uint32_t k = (target + big->ninstrs - 1) / big->ninstrs;
        struct hd_func *g = chain(big, k);
        struct timing t;
        uint32_t regs = 0;
        if (!g || time_func(g, &t, &regs)) {
            hd_ptx_module_free(m);
            return 1;
        }
        double sum = t.cfg + t.live + t.ra;
        printf("  %5u instrs %6u regs: cfg %.3f  liveness %.3f  regalloc %.3f  total %.3f ms "
               "(%.3f ms per 1000 instructions; %u regs/thread)\n",
               g->ninstrs, g->nregs, t.cfg, t.live, t.ra, sum, sum * 1000.0 / g->ninstrs, regs);
        free(g->instrs), free(g->regs), free(g);
    }
    hd_ptx_module_free(m);
    return 0;
}
