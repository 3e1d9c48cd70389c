/* SPDX-License-Identifier: MIT
 * gpuduet_mover.c - GPUDuet's context switching logic's data mover as the SMs' warp mover: one
 * gpuduet_csl block per SM decides when each warp switch completes (gpuduet_mover.h; Lin thesis
 * §3.11, Eq. 3.1-3.3; docs/blocks/gpuduet.md "The CSL's data mover").
 *
 * Design: per SM a FIFO of moves waiting for the block's command port (the residency may start
 * several in one cycle: a TB-level switch-out moves every warp of the TB) and a FIFO of the jobs
 * the block took, in order (the block serves them in order, so each done_* is the head's). The
 * model presents a command only while fewer than QD jobs are taken and not reported done: the
 * block then has room at that edge whatever completes there. The block is stepped in every
 * cycle with a command, a job or a registered output, and skipped when idle (hw_inst.h).
 * Without [gpuduet] blocks the block is its C reference stepped directly, with no port busy
 * (Lin's State / BW through one mover per SM; session 21).
 */
#include "gpuduet_mover.h"

#include "gpuduet.h"
#include "gpuduet_csl.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define QD GPUDUET_CSL_QD
#define MAXB ((uint64_t)1 << GPUDUET_CSL_BW)   /* a job's bytes are below this */
#define NOREC 0xFFu

struct job {
    uint32_t ctx, warp, wid;
    uint8_t kind, src, dst;
    bool slot;                   /* its register-file side is the warp slot (ST alone): the
                                    pipeline's register-file port use does not hold it */
    uint32_t bytes, bytes2;      /* (bytes2: a swap's arriving warp's, dst -> src) */
    uint64_t t0;                 /* cycle the residency started the move */
};

struct msm {
    struct hd_hw_inst x;         /* the block's instance ([gpuduet] blocks) */
    struct hd_gpuduet_csl_state r; /* ... or its C reference stepped directly (blocks off) */
    bool made;                   /* installed as the SM's warp mover */
    bool inst;                   /* x made */
    struct job *w;               /* waiting for the command port (ring) */
    uint32_t wh, wn, wcap;
    struct job f[QD];            /* taken by the block, in order (ring) */
    uint32_t fh, fn;
    bool cmd_last;               /* a command was presented at the last edge */
    uint8_t far[GD_WCT_ENTRIES]; /* where each switched-out warp's context went (NOREC) */
};

/* The instance kinds, one per port width ([block] loop_configs; QD and the ports are the same). */
static const struct {
    const char *kind;
    uint32_t pw;
} kinds[] = {
    {"gpuduet_csl", GPUDUET_CSL_PW},
    {"gpuduet_csl:pw64", GPUDUET_CSL__PW64_PW},
    {"gpuduet_csl:pw256", GPUDUET_CSL__PW256_PW},
};

struct gd_mover {
    struct hd_mech_wmover seam;  /* given to the SMs: start() below, impl this */
    struct gd *g;
    bool ports;                  /* [gpuduet] blocks: the block's instance through the GPU's
                                    factory, yielding to the pipeline's ports; false: its C
                                    reference with the ports always free (Lin's State / BW) */
    const char *kind;            /* the block's instance kind for [sm] warp_move_bytes */
    uint32_t pw;                 /* ... its port width */
    const struct hd_hw_factory *const *hw;
    uint32_t nsm;
    struct msm *sm;
    bool failed;                 /* a move the block cannot take (reported at the next cycle) */
    char err[256];
    uint64_t jobs, outs, ins, swaps, beats, want, waits, held, bytes, fixed, latency, steps;
    uint32_t max_waiting;
};

static uint64_t mv_start(void *impl, const struct hd_mech_wmove *m, uint64_t now);

struct gd_mover *gd_mover_create(struct gd *g, const struct hd_gpu_timing_params *p,
                                 const struct hd_hw_factory *const *hw, char *err, size_t errlen)
{
    const bool ports = p->gduet.blocks;
    const char *kind = NULL;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (kinds[k].pw == p->sm.warp_move_bytes)
            kind = kinds[k].kind;
    if (!kind && ports) {
        snprintf(err, errlen,
                 "key 'gpuduet.blocks': the CSL block (gpuduet_csl) is built with %u-, %u- and "
                 "%u-byte ports (configs/rtl/gpuduet_csl.ini PW, loop_configs); [sm] "
                 "warp_move_bytes = %u",
                 (unsigned)kinds[0].pw, (unsigned)kinds[1].pw, (unsigned)kinds[2].pw,
                 p->sm.warp_move_bytes);
        return NULL;
    }
    if (p->sm.warp_mover != HD_WMOVER_FIXED) {
        if (!ports) {
            snprintf(err, errlen, "gpuduet: the CSL's data mover with [sm] warp_mover not fixed");
            return NULL; /* (the caller makes it only with the fixed mover) */
        }
        snprintf(err, errlen,
                 "key 'gpuduet.blocks': the CSL block (gpuduet_csl) moves the switched-out warps; "
                 "[sm] warp_mover must be fixed");
        return NULL;
    }
    struct gd_mover *mv = calloc(1, sizeof *mv);
    if (!mv || !(mv->sm = calloc(p->num_sms, sizeof *mv->sm))) {
        free(mv);
        snprintf(err, errlen, "host out of memory (gpuduet csl)");
        return NULL;
    }
    mv->g = g;
    mv->ports = ports;
    mv->kind = kind;
    mv->pw = p->sm.warp_move_bytes;
    mv->hw = hw;
    mv->nsm = p->num_sms;
    mv->seam = (struct hd_mech_wmover){mv_start, mv, true};
    for (uint32_t i = 0; i < mv->nsm; i++)
        memset(mv->sm[i].far, NOREC, sizeof mv->sm[i].far);
    return mv;
}

void gd_mover_destroy(struct gd_mover *mv)
{
    if (!mv)
        return;
    for (uint32_t i = 0; i < mv->nsm; i++) {
        if (mv->sm[i].inst)
            hd_hw_destroy(&mv->sm[i].x);
        free(mv->sm[i].w);
    }
    free(mv->sm);
    free(mv);
}

int gd_mover_start(struct gd_mover *mv, char *err, size_t errlen)
{
    const struct hd_mech_act *act = mv->g->act;
    const struct hd_hw_factory *f = mv->hw && *mv->hw ? *mv->hw : hd_hw_ref_factory();
    for (uint32_t i = 0; i < mv->nsm; i++) {
        char name[64];
        snprintf(name, sizeof name, "sm%u.gpuduet_csl", i);
        if (!mv->ports) { /* (any [sm] warp_move_bytes: the reference's beat is its pw) */
            hd_gpuduet_csl_ref_reset(&mv->sm[i].r);
            mv->sm[i].r.pw = mv->pw;
        } else if (hd_hw_make_sized(f, mv->kind, name, &mv->sm[i].x,
                                    sizeof(struct hd_gpuduet_csl_in),
                                    sizeof(struct hd_gpuduet_csl_out), err, errlen) != 0) {
            return -1;
        } else {
            mv->sm[i].inst = true;
        }
        mv->sm[i].made = true;
        if (!act->warp_mover(act->gpu, i, &mv->seam)) {
            snprintf(err, errlen, "host out of memory installing the gpuduet CSL mover");
            return -1;
        }
    }
    return 0;
}

static bool push_waiting(struct msm *s, const struct job *j)
{
    if (s->wn == s->wcap) {
        const uint32_t cap = s->wcap ? 2 * s->wcap : 16;
        struct job *w = malloc(cap * sizeof *w);
        if (!w)
            return false;
        for (uint32_t k = 0; k < s->wn; k++)
            w[k] = s->w[(s->wh + k) % s->wcap];
        free(s->w);
        s->w = w;
        s->wh = 0;
        s->wcap = cap;
    }
    s->w[(s->wh + s->wn++) % s->wcap] = *j;
    return true;
}

static uint64_t fixed(struct gd_mover *mv, uint64_t bytes, uint64_t now)
{
    mv->fixed++;
    return now + (bytes + mv->pw - 1u) / mv->pw;
}

/* The arrays of WCT entry e's move on SM i: *near (its home: the register file, or shared memory
 * at TB level) and *far (where its context goes or is: out, the spill space the allocator
 * reserved for it; in, where it went), *slot (the register-file side is the warp slot: ST
 * alone). false: not in a plan. */
static bool arrays(struct gd_mover *mv, uint32_t i, uint32_t e, bool in, uint8_t *near,
                   uint8_t *far, bool *slot)
{
    struct gd *g = mv->g;
    struct gd_sm *s = &g->sm[i];
    const struct gd_launch *L =
        e == GD_NONE ? NULL : gd_launch_of(g, s->wct.t[s->wct.w[e].tb].launch);
    if (!L || !L->planned || !s->alloc)
        return false;
    *near = L->plan.spill_smem ? HD_GCSL_SMEM : HD_GCSL_RF;
    if (!in) {
        const int r = gd_alloc_spill_region(s->alloc, s->wct.t[s->wct.w[e].tb].cta_slot,
                                            s->wct.w[e].warp);
        *far = r < 0 ? (g->mode == GD_MODE_VT ? HD_GCSL_SMEM : NOREC) : (uint8_t)r;
    } else {
        *far = mv->sm[i].far[e]; /* (NOREC: placed absent, its context was never stored) */
    }
    *slot = *near == HD_GCSL_RF && (g->mode == GD_MODE_VT || !L->plan.spill_regs);
    return true;
}

bool gd_mover_swap_ok(struct gd_mover *mv, uint32_t sm, uint32_t out, uint32_t in)
{
    uint8_t n1, f1, n2, f2;
    bool s1, s2;
    return sm < mv->nsm && mv->sm[sm].made && arrays(mv, sm, out, false, &n1, &f1, &s1) &&
           arrays(mv, sm, in, true, &n2, &f2, &s2) && f1 != NOREC && f1 != n1 && n1 == n2 &&
           f1 == f2;
}

/* A swap (mech.h hd_mech_wmove.swap): one kind-2 job, the leaving warp's bytes near -> far,
 * then the arriving warp's far -> near into the space just vacated (gd_mover_swap_ok held when
 * the CSL asked for it: both between the same two arrays). */
static uint64_t start_swap(struct gd_mover *mv, const struct hd_mech_wmove *m, uint64_t now)
{
    struct gd *g = mv->g;
    struct gd_sm *s = &g->sm[m->sm];
    struct msm *ms = &mv->sm[m->sm];
    const uint32_t e = gd_wct_find(&s->wct, m->ctx, m->warp),
                   e2 = gd_wct_find(&s->wct, m->ctx2, m->warp2);
    uint8_t n1 = 0, f1 = NOREC, n2 = 0, f2 = NOREC;
    bool s1 = false, s2 = false;
    const bool ok = arrays(mv, m->sm, e, false, &n1, &f1, &s1) &&
                    arrays(mv, m->sm, e2, true, &n2, &f2, &s2) && f1 != NOREC && f1 != n1 &&
                    n1 == n2 && f1 == f2 && m->bytes < MAXB && m->bytes2 < MAXB && m->bytes2;
    if (!ok) {
        if (!mv->failed)
            snprintf(mv->err, sizeof mv->err,
                     "gpuduet csl: SM %u cycle %" PRIu64 ": a swap of warp %u of context %u "
                     "(%" PRIu64 " bytes, array %u -> %u) with warp %u of context %u (%" PRIu64
                     " bytes, array %u -> %u) is not one job of the block (two arrays, both "
                     "below its %d-bit byte count)",
                     m->sm, now, m->warp, m->ctx, m->bytes, n1, f1, m->warp2, m->ctx2, m->bytes2,
                     f2, n2, GPUDUET_CSL_BW);
        mv->failed = true;
        return fixed(mv, m->bytes + m->bytes2, now);
    }
    ms->far[e] = f1;
    ms->far[e2] = NOREC;
    const struct job j = {m->ctx,    m->warp, e, HD_GCSL_SWAP, n1, f1, s1 && s2,
                          (uint32_t)m->bytes, (uint32_t)m->bytes2, now};
    if (!push_waiting(ms, &j)) {
        if (!mv->failed)
            snprintf(mv->err, sizeof mv->err, "host out of memory (gpuduet csl commands)");
        mv->failed = true;
        return fixed(mv, m->bytes + m->bytes2, now);
    }
    if (ms->wn > mv->max_waiting)
        mv->max_waiting = ms->wn;
    return HD_MECH_WMOVE_CALLBACK;
}

/* The residency starts a warp's move (mech.h struct hd_mech_wmove). */
static uint64_t mv_start(void *impl, const struct hd_mech_wmove *m, uint64_t now)
{
    struct gd_mover *mv = impl;
    struct gd *g = mv->g;
    if (m->sm >= mv->nsm || m->sm >= g->nsm)
        return fixed(mv, m->bytes + m->bytes2, now);
    if (m->swap)
        return start_swap(mv, m, now);
    struct gd_sm *s = &g->sm[m->sm];
    struct msm *ms = &mv->sm[m->sm];
    const uint32_t e = gd_wct_find(&s->wct, m->ctx, m->warp);
    const struct gd_launch *L =
        e == GD_NONE ? NULL : gd_launch_of(g, s->wct.t[s->wct.w[e].tb].launch);
    if (!L || !L->planned || !s->alloc)
        return fixed(mv, m->bytes, now); /* (not in the tables: no WCT entry to name it) */
    const uint8_t near = L->plan.spill_smem ? HD_GCSL_SMEM : HD_GCSL_RF;
    uint8_t far;
    if (!m->in) {
        const int r = gd_alloc_spill_region(s->alloc, s->wct.t[s->wct.w[e].tb].cta_slot, m->warp);
        far = r < 0 ? (g->mode == GD_MODE_VT ? HD_GCSL_SMEM : NOREC) : (uint8_t)r;
        ms->far[e] = far;
    } else {
        far = ms->far[e]; /* (NOREC: placed absent, its context was never stored) */
        ms->far[e] = NOREC;
    }
    if (far == NOREC || far == near)
        return fixed(mv, m->bytes, now);
    if (m->bytes >= MAXB) {
        if (!mv->failed)
            snprintf(mv->err, sizeof mv->err,
                     "gpuduet csl: SM %u cycle %" PRIu64 ": a move of %" PRIu64 " bytes (warp %u "
                     "of context %u) exceeds the block's %d-bit byte count "
                     "(configs/rtl/gpuduet_csl.ini BW)",
                     m->sm, now, m->bytes, m->warp, m->ctx, GPUDUET_CSL_BW);
        mv->failed = true;
        return fixed(mv, m->bytes, now);
    }
    const bool slot = near == HD_GCSL_RF && (g->mode == GD_MODE_VT || !L->plan.spill_regs);
    const struct job j = {m->ctx, m->warp, e, m->in ? HD_GCSL_IN : HD_GCSL_OUT,
                          m->in ? far : near, m->in ? near : far, slot, (uint32_t)m->bytes, 0,
                          now};
    if (!push_waiting(ms, &j)) {
        if (!mv->failed)
            snprintf(mv->err, sizeof mv->err, "host out of memory (gpuduet csl commands)");
        mv->failed = true;
        return fixed(mv, m->bytes, now);
    }
    if (ms->wn > mv->max_waiting)
        mv->max_waiting = ms->wn;
    return HD_MECH_WMOVE_CALLBACK;
}

static int step_sm(struct gd_mover *mv, uint32_t i, uint64_t now, char *err, size_t errlen)
{
    struct msm *s = &mv->sm[i];
    const struct hd_mech_act *act = mv->g->act;
    struct hd_gpuduet_csl_in in;
    struct hd_gpuduet_csl_out out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    const bool cmd = s->wn && s->fn < QD;
    struct job jc = {0};
    if (cmd) /* (a copy: a move started from warp_moved below may grow the ring) */
        jc = s->w[s->wh];
    const struct job *j = cmd ? &jc : NULL;
    if (j) {
        in.cmd_v_i = 1;
        in.cmd_kind_i = j->kind;
        in.cmd_wid_i = j->wid;
        in.cmd_src_i = j->src;
        in.cmd_dst_i = j->dst;
        in.cmd_bytes_i = j->bytes;
        in.cmd_bytes2_i = j->bytes2;
    }
    /* the pipeline's port use (with the blocks; without, the ports are the mover's alone); the
     * register file's only when a job in the block (or this command) moves registers: a warp
     * slot's state (ST) is not behind the register file's port */
    if (mv->ports) {
        bool rf = j && !j->slot;
        for (uint32_t k = 0; k < s->fn && !rf; k++)
            rf = !s->f[(s->fh + k) % QD].slot;
        in.busy_i = act->port_busy(act->gpu, i, now) & (rf ? 7u : 6u);
    }
    if (!cmd && !s->fn && !s->cmd_last &&
        (mv->ports ? hd_hw_idle(&s->x, &in) : hd_gpuduet_csl_ref_idle(&s->r, &in)))
        return 0;
    mv->steps++;
    if (!mv->ports) {
        hd_gpuduet_csl_ref_step(&s->r, &in, &out);
    } else if (hd_hw_step(&s->x, &in, &out, now) != 0) {
        snprintf(err, errlen, "%s", s->x.ops->error(s->x.impl));
        return -1;
    }
    if (s->cmd_last && out.drop_o) {
        snprintf(err, errlen,
                 "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_csl, signal "
                 "drop_o: the block refused the command of the last edge, which the model sent "
                 "with %u of %d jobs taken", now, i, s->fn - (j != NULL), QD);
        return -1;
    }
    s->cmd_last = j != NULL;
    mv->beats += out.beat_v_o & 1u;
    mv->waits += out.wait_o & 1u;
    if (out.done_v_o & 1u) {
        const struct job *h = s->fn ? &s->f[s->fh] : NULL;
        if (!h || out.done_wid_o != h->wid || out.done_kind_o != h->kind) {
            snprintf(err, errlen,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_csl, "
                     "signal done_wid_o: the block gives warp %" PRIu64 " kind %" PRIu64 ", the "
                     "model's oldest job is %s%u kind %u",
                     now, i, (uint64_t)out.done_wid_o, (uint64_t)out.done_kind_o,
                     h ? "warp " : "none, ", h ? h->wid : 0, h ? h->kind : 0);
            return -1;
        }
        const struct job d = *h;
        s->fh = (s->fh + 1u) % QD;
        s->fn--;
        mv->latency += now + 1 - d.t0;
        /* (a swap's: the residency completes its arriving warp with it) */
        act->warp_moved(act->gpu, i, d.ctx, d.warp, now);
    }
    if (j) { /* taken at this edge (a refusal shows at the next step) */
        s->f[(s->fh + s->fn++) % QD] = *j;
        s->wh = (s->wh + 1u) % s->wcap;
        s->wn--;
        mv->jobs++;
        mv->outs += j->kind == HD_GCSL_OUT;
        mv->ins += j->kind == HD_GCSL_IN;
        mv->swaps += j->kind == HD_GCSL_SWAP;
        mv->bytes += (uint64_t)j->bytes + j->bytes2;
        mv->want += (j->bytes + mv->pw - 1u) / mv->pw + (j->bytes2 + mv->pw - 1u) / mv->pw;
    }
    return 0;
}

int gd_mover_cycle(struct gd_mover *mv, uint64_t now, bool *busy, char *err, size_t errlen)
{
    if (mv->failed) {
        snprintf(err, errlen, "%s", mv->err);
        return -1;
    }
    for (uint32_t i = 0; i < mv->nsm; i++) {
        if (!mv->sm[i].made)
            continue;
        if (step_sm(mv, i, now, err, errlen) != 0)
            return -1;
        *busy |= mv->sm[i].wn || mv->sm[i].fn || mv->sm[i].cmd_last;
    }
    return 0;
}

bool gd_mover_held(struct gd_mover *mv, uint32_t sm)
{
    const bool h = sm < mv->nsm && (mv->sm[sm].wn || mv->sm[sm].fn >= QD);
    mv->held += h;
    return h;
}

void gd_mover_log(const struct gd_mover *mv, FILE *f)
{
    uint64_t left = 0;
    for (uint32_t i = 0; i < mv->nsm; i++)
        left += mv->sm[i].wn + mv->sm[i].fn;
    fprintf(f,
            "csl jobs=%" PRIu64 " outs=%" PRIu64 " ins=%" PRIu64 " swaps=%" PRIu64
            " beats=%" PRIu64
            " beats_want=%" PRIu64 " waits=%" PRIu64 " held=%" PRIu64 " bytes=%" PRIu64
            " fixed=%" PRIu64 " latency=%" PRIu64
            " max_waiting=%u steps=%" PRIu64 " left=%" PRIu64 "\n",
            mv->jobs, mv->outs, mv->ins, mv->swaps, mv->beats, mv->want, mv->waits, mv->held,
            mv->bytes,
            mv->fixed,
            mv->latency, mv->max_waiting, mv->steps, left);
}
