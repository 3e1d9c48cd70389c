/* SPDX-License-Identifier: MIT
 * gpuduet_tab.c - GPUDuet's warp and TB context tables of one SM as the gpuduet_wct and
 * gpuduet_tbct blocks, whose read port is the model's view (gpuduet_tab.h; Lin thesis §3.6.4,
 * Fig 3.9, Table 3.4; digest §3.8, §3.9; docs/blocks/gpuduet.md "In the GPU").
 */
#include "gpuduet_tab.h"

#include "gpuduet_tbct.h"
#include "gpuduet_wct.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NW GPUDUET_WCT_NW
#define NT GPUDUET_TBCT_NT
#define AMASK ((1u << GPUDUET_WCT_AW) - 1u)
#define TAMASK ((1u << GPUDUET_TBCT_AW) - 1u)
#define NWV ((NW + 31) / 32)

enum { W_FIN, W_LD, W_ST, W_MR, W_CSL };
enum { T_FIN, T_LD, T_TM, T_WM };

/* One write, queued until its port takes it, kept until a read of its entry shows it. */
struct op {
    uint8_t port, st, k, bit;
    uint16_t e;          /* the entry */
    uint16_t reg, meta;  /* WCT: addresses; TBCT: reg = Smemaddr */
    uint32_t abs;
    bool sent;
    uint64_t edge;       /* the edge it was presented at */
};

/* One table's writes in flight and its read-back. */
struct tq {
    struct op *op;
    uint32_t n, cap;
    uint16_t npend[NW];  /* writes of the entry in op[] */
    uint64_t rdq[(NW + 63) / 64]; /* entries written, to read back */
    uint32_t rr;         /* the next entry the read port looks at */
    bool due;            /* a read was presented at the last step: its result comes now */
    uint32_t rd_e;
    uint64_t rd_edge;
    uint64_t writes, reads;
};

_Static_assert(NW == GD_TAB_NW && NT == GD_TAB_NT, "gpuduet_tab: the view's sizes are the blocks'");

struct gd_tab {
    struct gd_tab_view view;          /* (first: gpuduet_tab.h's accessors) the view: the
                                         block's read of each entry with the writes in flight,
                                         rebuilt from the read whenever one comes back */
    struct hd_hw_inst wct, tbct;
    bool wmade, tmade;
    uint32_t sm;
    uint64_t fault;
    bool fault_done;
    struct gd_wf wblk[NW], wsent[NW]; /* the block's last read of each entry; what the writes
                                         presented make it (what a read must show) */
    struct gd_tf tblk[NT], tsent[NT];
    uint32_t snvalid, svec[3][NWV];   /* wsent's valid count and vectors */
    struct tq wq, tq;
    struct gd_wf wwant;               /* the read in flight must show ... */
    uint32_t want_nvalid, want_vec[3][NWV];
    struct gd_tf twant;
    uint32_t want_tvec[3];
};

/* {==== The blocks' write rules (tables/gpuduet_wct.c, tables/gpuduet_tbct.c) ==== */
static struct gd_wf wapply(struct gd_wf v, const struct op *o)
{
    switch (o->port) {
    case W_FIN:
        return (struct gd_wf){0, 0, 0, 0};
    case W_LD:
        return (struct gd_wf){1, (uint8_t)(o->st & 3u), (uint16_t)(o->reg & AMASK),
                              (uint16_t)(o->meta & AMASK)};
    case W_ST:
        if (v.valid && v.state == HD_WCT_RUNNING)
            v.state = HD_WCT_STALLED;
        return v;
    case W_MR:
        if (v.valid && v.state == HD_WCT_ABSENT)
            v.state = HD_WCT_READY;
        else if (v.valid && v.state == HD_WCT_STALLED)
            v.state = HD_WCT_RUNNING;
        return v;
    default:
        if (v.valid)
            v = (struct gd_wf){1, (uint8_t)(o->st & 3u), (uint16_t)(o->reg & AMASK),
                               (uint16_t)(o->meta & AMASK)};
        return v;
    }
}

static struct gd_tf tapply(struct gd_tf v, const struct op *o)
{
    switch (o->port) {
    case T_FIN:
        return (struct gd_tf){0, 0, 0};
    case T_LD:
        return (struct gd_tf){1, o->abs, (uint16_t)(o->reg & TAMASK)};
    case T_TM:
        if (v.valid) {
            v.abs = o->abs;
            v.smem = (uint16_t)(o->reg & TAMASK);
        }
        return v;
    default:
        if (v.valid && o->k < GPUDUET_TBCT_NWT)
            v.abs = o->bit ? v.abs | 1u << o->k : v.abs & ~(1u << o->k);
        return v;
    }
}
/* }==== */

/* {==== Creation ==== */
struct gd_tab *gd_tab_create(const struct hd_hw_factory *f, uint32_t sm, uint64_t fault,
                             char *err, size_t errlen)
{
    struct gd_tab *T = calloc(1, sizeof *T);
    if (!T) {
        snprintf(err, errlen, "host out of memory (gpuduet tables)");
        return NULL;
    }
    T->sm = sm;
    T->fault = fault;
    if (!f)
        f = hd_hw_ref_factory();
    char name[64];
    snprintf(name, sizeof name, "sm%u.gpuduet_wct", sm);
    if (hd_hw_make_sized(f, "gpuduet_wct", name, &T->wct, sizeof(struct hd_gpuduet_wct_in),
                         sizeof(struct hd_gpuduet_wct_out), err, errlen) != 0) {
        gd_tab_destroy(T);
        return NULL;
    }
    T->wmade = true;
    snprintf(name, sizeof name, "sm%u.gpuduet_tbct", sm);
    if (hd_hw_make_sized(f, "gpuduet_tbct", name, &T->tbct, sizeof(struct hd_gpuduet_tbct_in),
                         sizeof(struct hd_gpuduet_tbct_out), err, errlen) != 0) {
        gd_tab_destroy(T);
        return NULL;
    }
    T->tmade = true;
    return T;
}

void gd_tab_destroy(struct gd_tab *T)
{
    if (!T)
        return;
    if (T->wmade)
        hd_hw_destroy(&T->wct);
    if (T->tmade)
        hd_hw_destroy(&T->tbct);
    free(T->wq.op);
    free(T->tq.op);
    free(T);
}
/* }==== */

/* {==== The view and the writes ==== */
/* The view of entry e from the block's last read of it and the writes still in flight. */
static void wrebuild(struct gd_tab *T, uint32_t e)
{
    struct gd_wf v = T->wblk[e];
    for (uint32_t i = 0, left = T->wq.npend[e]; left && i < T->wq.n; i++)
        if (T->wq.op[i].e == e) {
            v = wapply(v, &T->wq.op[i]);
            left--;
        }
    T->view.w[e] = v;
}

static void trebuild(struct gd_tab *T, uint32_t t)
{
    struct gd_tf v = T->tblk[t];
    for (uint32_t i = 0, left = T->tq.npend[t]; left && i < T->tq.n; i++)
        if (T->tq.op[i].e == t) {
            v = tapply(v, &T->tq.op[i]);
            left--;
        }
    T->view.t[t] = v;
}

static void push(struct tq *q, const struct op *o)
{
    if (q->n == q->cap) {
        const uint32_t cap = q->cap ? 2 * q->cap : 64;
        struct op *p = realloc(q->op, cap * sizeof *p);
        if (!p)
            abort(); /* (host out of memory: a few hundred bytes per SM) */
        q->op = p;
        q->cap = cap;
    }
    q->op[q->n++] = *o;
    q->npend[o->e]++;
}

static void push_w(struct gd_tab *T, const struct op *o)
{
    push(&T->wq, o);
    T->view.w[o->e] = wapply(T->view.w[o->e], o);
}

static void push_t(struct gd_tab *T, const struct op *o)
{
    push(&T->tq, o);
    T->view.t[o->e] = tapply(T->view.t[o->e], o);
}

void gd_tab_w_launch(struct gd_tab *T, uint32_t e, uint8_t state, uint32_t reg, uint32_t meta)
{
    if (e < NW)
        push_w(T, &(struct op){.port = W_LD, .st = state, .e = (uint16_t)e,
                                  .reg = (uint16_t)(reg & AMASK), .meta = (uint16_t)(meta & AMASK)});
}

void gd_tab_w_finish(struct gd_tab *T, uint32_t e)
{
    if (e < NW && gd_tab_w(T, e).valid)
        push_w(T, &(struct op){.port = W_FIN, .e = (uint16_t)e});
}

void gd_tab_w_state(struct gd_tab *T, uint32_t e, uint8_t st)
{
    const struct gd_wf v = gd_tab_w(T, e);
    if (!v.valid || v.state == st)
        return;
    uint8_t port = W_CSL;
    if (v.state == HD_WCT_RUNNING && st == HD_WCT_STALLED)
        port = W_ST;
    else if ((v.state == HD_WCT_STALLED && st == HD_WCT_RUNNING) ||
             (v.state == HD_WCT_ABSENT && st == HD_WCT_READY))
        port = W_MR;
    push_w(T, &(struct op){.port = port, .st = st, .e = (uint16_t)e, .reg = v.reg,
                              .meta = v.meta});
}

void gd_tab_w_move(struct gd_tab *T, uint32_t e, uint8_t st, uint32_t reg, uint32_t meta)
{
    const struct gd_wf v = gd_tab_w(T, e);
    if (!v.valid || (v.state == st && v.reg == (reg & AMASK) && v.meta == (meta & AMASK)))
        return;
    if (v.reg == (reg & AMASK) && v.meta == (meta & AMASK)) {
        gd_tab_w_state(T, e, st); /* (only the state: its own port when it names one) */
        return;
    }
    push_w(T, &(struct op){.port = W_CSL, .st = st, .e = (uint16_t)e,
                              .reg = (uint16_t)(reg & AMASK), .meta = (uint16_t)(meta & AMASK)});
}

void gd_tab_t_launch(struct gd_tab *T, uint32_t t, uint32_t abs, uint32_t smem)
{
    if (t < NT)
        push_t(T, &(struct op){.port = T_LD, .e = (uint16_t)t, .abs = abs,
                                  .reg = (uint16_t)(smem & TAMASK)});
}

void gd_tab_t_finish(struct gd_tab *T, uint32_t t)
{
    if (t < NT && gd_tab_t(T, t).valid)
        push_t(T, &(struct op){.port = T_FIN, .e = (uint16_t)t});
}

void gd_tab_t_warp(struct gd_tab *T, uint32_t t, uint32_t k, bool abs, uint32_t smem)
{
    const struct gd_tf v = gd_tab_t(T, t);
    if (!v.valid || k >= GPUDUET_TBCT_NWT)
        return;
    const uint32_t nabs = abs ? v.abs | 1u << k : v.abs & ~(1u << k);
    if ((smem & TAMASK) != v.smem)
        push_t(T, &(struct op){.port = T_TM, .e = (uint16_t)t, .abs = nabs,
                                  .reg = (uint16_t)(smem & TAMASK)});
    else if (nabs != v.abs)
        push_t(T, &(struct op){.port = T_WM, .e = (uint16_t)t, .k = (uint8_t)k,
                                  .bit = abs});
}
void gd_tab_t_smem(struct gd_tab *T, uint32_t t, uint32_t smem)
{
    const struct gd_tf v = gd_tab_t(T, t);
    if (v.valid && (smem & TAMASK) != v.smem)
        push_t(T, &(struct op){.port = T_TM, .e = (uint16_t)t, .abs = v.abs,
                                  .reg = (uint16_t)(smem & TAMASK)});
}
/* }==== */

/* {==== The cycle ==== */
/* The next entry to read back (round robin over those written), or n: none. */
static uint32_t next_read(struct tq *q, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t e = (q->rr + k) % n;
        if (q->rdq[e / 64] >> (e % 64) & 1u) {
            q->rdq[e / 64] &= ~(1ull << (e % 64));
            q->rr = (e + 1) % n;
            return e;
        }
    }
    return n;
}

/* The read of entry e (presented at q->rd_edge) came back: the writes it shows leave the
 * queue. */
static void retire(struct tq *q, uint32_t e)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        const struct op *o = &q->op[i];
        if (o->e == e && o->sent && o->edge <= q->rd_edge) {
            q->npend[e]--;
            continue;
        }
        q->op[j++] = *o;
    }
    q->n = j;
}

static bool rd_pending(const struct tq *q)
{
    for (uint32_t k = 0; k < (NW + 63) / 64; k++)
        if (q->rdq[k])
            return true;
    return false;
}

static int fail(struct gd_tab *T, char *err, size_t errlen, const char *msg)
{
    (void)T;
    snprintf(err, errlen, "%s", msg);
    return -1;
}

/* What the writes presented make entry e: v (and the table's count and vectors with it). */
static void wsent_set(struct gd_tab *T, uint32_t e, struct gd_wf v)
{
    const struct gd_wf *o = &T->wsent[e];
    const uint32_t bit = 1u << (e % 32);
    T->snvalid += (uint32_t)v.valid - (uint32_t)o->valid;
    for (uint32_t k = 0; k < 3; k++)
        T->svec[k][e / 32] &= ~bit;
    if (v.valid && v.state == HD_WCT_RUNNING && hd_gpuduet_wct_present(v.reg) &&
        hd_gpuduet_wct_present(v.meta))
        T->svec[0][e / 32] |= bit;
    if (v.valid && v.state == HD_WCT_STALLED)
        T->svec[1][e / 32] |= bit;
    if (v.valid && v.state == HD_WCT_READY)
        T->svec[2][e / 32] |= bit;
    T->wsent[e] = v;
}

static int step_wct(struct gd_tab *T, uint64_t now, char *err, size_t errlen)
{
    struct tq *q = &T->wq;
    struct hd_gpuduet_wct_in in;
    memset(&in, 0, sizeof in);
    uint64_t blocked[(NW + 63) / 64] = {0}; /* an entry with a write unsent or sent now */
    for (uint32_t i = 0; i < q->n; i++) {
        struct op *o = &q->op[i];
        if (o->sent)
            continue;
        const uint32_t e = o->e;
        const uint64_t m = 1ull << (e % 64);
        if (blocked[e / 64] & m)
            continue;
        blocked[e / 64] |= m;
        uint64_t *v = o->port == W_FIN  ? &in.fin_v_i
                      : o->port == W_LD ? &in.ld_v_i
                      : o->port == W_ST ? &in.st_v_i
                      : o->port == W_MR ? &in.mr_v_i
                                        : &in.csl_v_i;
        if (*v)
            continue; /* its port is taken at this edge */
        *v = 1;
        switch (o->port) {
        case W_FIN:
            in.fin_wid_i = e;
            break;
        case W_LD:
            in.ld_wid_i = e;
            in.ld_state_i = o->st;
            in.ld_reg_i = o->reg;
            in.ld_meta_i = o->meta;
            break;
        case W_ST:
            in.st_wid_i = e;
            break;
        case W_MR:
            in.mr_wid_i = e;
            break;
        default:
            in.csl_wid_i = e;
            in.csl_state_i = o->st;
            in.csl_reg_i = o->reg;
            in.csl_meta_i = o->meta;
            if (T->fault && !T->fault_done && now >= T->fault) {
                in.csl_state_i ^= 1u; /* the test-only fault: a wrong state written */
                T->fault_done = true;
            }
        }
        o->sent = true;
        o->edge = now;
        wsent_set(T, e, wapply(T->wsent[e], o));
        q->rdq[e / 64] |= m;
        q->writes++;
    }
    const uint32_t rd = next_read(q, NW);
    if (rd < NW) {
        in.rd_v_i = 1;
        in.rd_wid_i = rd;
    }
    if (!q->due && rd == NW && hd_hw_idle(&T->wct, &in))
        return 0;
    const uint64_t tag[1] = {T->sm};
    hd_hw_set_tag(&T->wct, tag, 1);
    struct hd_gpuduet_wct_out out;
    if (hd_hw_step(&T->wct, &in, &out, now) != 0)
        return fail(T, err, errlen, T->wct.ops->error(T->wct.impl));
    if (q->due) {
        const struct gd_wf *w = &T->wwant;
        const uint32_t e = q->rd_e;
        const char *bad = NULL;
        uint64_t got = 0, exp = 0;
        int bitno = -1;
        if (!(out.rd_v_o & 1))
            bad = "rd_v_o", got = 0, exp = 1;
        else if ((out.rd_valid_o & 1) != w->valid)
            bad = "rd_valid_o", got = out.rd_valid_o, exp = w->valid;
        else if (out.rd_state_o != w->state)
            bad = "rd_state_o", got = out.rd_state_o, exp = w->state;
        else if (out.rd_reg_o != w->reg)
            bad = "rd_reg_o", got = out.rd_reg_o, exp = w->reg;
        else if (out.rd_meta_o != w->meta)
            bad = "rd_meta_o", got = out.rd_meta_o, exp = w->meta;
        else if (out.rd_nvalid_o != T->want_nvalid)
            bad = "rd_nvalid_o", got = out.rd_nvalid_o, exp = T->want_nvalid;
        static const char *const vn[3] = {"rd_sched_o", "rd_stalled_o", "rd_ready_o"};
        for (uint32_t v = 0; v < 3 && !bad; v++) {
            const uint32_t *o = v == 0 ? out.rd_sched_o : v == 1 ? out.rd_stalled_o
                                                                 : out.rd_ready_o;
            for (uint32_t k = 0; k < NWV && !bad; k++)
                if (o[k] != T->want_vec[v][k]) {
                    const uint32_t b = (uint32_t)__builtin_ctz(o[k] ^ T->want_vec[v][k]);
                    bad = vn[v];
                    got = o[k] >> b & 1u;
                    exp = T->want_vec[v][k] >> b & 1u;
                    bitno = (int)(k * 32 + b);
                }
        }
        if (bad) {
            char bit[32] = "";
            if (bitno >= 0)
                snprintf(bit, sizeof bit, " bit %d", bitno);
            snprintf(err, errlen,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_wct, "
                     "signal %s%s: the block gives %" PRIu64 ", the model's warp context table "
                     "has %" PRIu64 " (reading entry %u, which the writes the model sent make "
                     "valid=%u state=%s Regaddr=0x%03x Metaaddr=0x%03x)",
                     now, T->sm, bad, bit, got, exp, e, w->valid,
                     hd_gpuduet_wct_state_name(w->state), w->reg, w->meta);
            return -1;
        }
        /* the block's read is the entry's view from now on (with the writes since) */
        T->wblk[e] = (struct gd_wf){(uint8_t)(out.rd_valid_o & 1u), (uint8_t)out.rd_state_o,
                                    (uint16_t)out.rd_reg_o, (uint16_t)out.rd_meta_o};
        retire(q, e);
        wrebuild(T, e);
        q->reads++;
    }
    q->due = rd < NW;
    if (rd < NW) { /* what the read must show: the table after this edge's writes */
        q->rd_e = rd;
        q->rd_edge = now;
        T->wwant = T->wsent[rd];
        T->want_nvalid = T->snvalid;
        memcpy(T->want_vec, T->svec, sizeof T->want_vec);
    }
    return 0;
}

static int step_tbct(struct gd_tab *T, uint64_t now, char *err, size_t errlen)
{
    struct tq *q = &T->tq;
    struct hd_gpuduet_tbct_in in;
    memset(&in, 0, sizeof in);
    uint64_t blocked = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        struct op *o = &q->op[i];
        if (o->sent)
            continue;
        const uint32_t t = o->e;
        if (blocked >> t & 1u)
            continue;
        blocked |= 1ull << t;
        uint64_t *v = o->port == T_FIN  ? &in.fin_v_i
                      : o->port == T_LD ? &in.ld_v_i
                      : o->port == T_TM ? &in.tm_v_i
                                        : &in.wm_v_i;
        if (*v)
            continue;
        *v = 1;
        switch (o->port) {
        case T_FIN:
            in.fin_tb_i = t;
            break;
        case T_LD:
            in.ld_tb_i = t;
            in.ld_abs_i = o->abs;
            in.ld_smem_i = o->reg;
            break;
        case T_TM:
            in.tm_tb_i = t;
            in.tm_abs_i = o->abs;
            in.tm_smem_i = o->reg;
            break;
        default:
            in.wm_tb_i = t;
            in.wm_warp_i = o->k;
            in.wm_abs_i = o->bit;
        }
        o->sent = true;
        o->edge = now;
        T->tsent[t] = tapply(T->tsent[t], o);
        q->rdq[0] |= 1ull << t;
        q->writes++;
    }
    const uint32_t rd = next_read(q, NT);
    if (rd < NT) {
        in.rd_v_i = 1;
        in.rd_tb_i = rd;
    }
    if (!q->due && rd == NT && hd_hw_idle(&T->tbct, &in))
        return 0;
    const uint64_t tag[1] = {T->sm};
    hd_hw_set_tag(&T->tbct, tag, 1);
    struct hd_gpuduet_tbct_out out;
    if (hd_hw_step(&T->tbct, &in, &out, now) != 0)
        return fail(T, err, errlen, T->tbct.ops->error(T->tbct.impl));
    if (q->due) {
        const struct gd_tf *w = &T->twant;
        const char *bad = NULL;
        uint64_t got = 0, exp = 0;
        if (!(out.rd_v_o & 1))
            bad = "rd_v_o", got = 0, exp = 1;
        else if ((out.rd_valid_o & 1) != w->valid)
            bad = "rd_valid_o", got = out.rd_valid_o, exp = w->valid;
        else if (out.rd_abs_o != w->abs)
            bad = "rd_abs_o", got = out.rd_abs_o, exp = w->abs;
        else if (out.rd_smem_o != w->smem)
            bad = "rd_smem_o", got = out.rd_smem_o, exp = w->smem;
        else if (out.rd_valids_o != T->want_tvec[0])
            bad = "rd_valids_o", got = out.rd_valids_o, exp = T->want_tvec[0];
        else if (out.rd_smemp_o != T->want_tvec[1])
            bad = "rd_smemp_o", got = out.rd_smemp_o, exp = T->want_tvec[1];
        else if (out.rd_whole_o != T->want_tvec[2])
            bad = "rd_whole_o", got = out.rd_whole_o, exp = T->want_tvec[2];
        if (bad) {
            snprintf(err, errlen,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_tbct, "
                     "signal %s: the block gives 0x%" PRIx64 ", the model's TB context table has "
                     "0x%" PRIx64 " (reading entry %u: valid=%u Absmask=0x%08x Smemaddr=0x%03x)",
                     now, T->sm, bad, got, exp, q->rd_e, w->valid, w->abs, w->smem);
            return -1;
        }
        T->tblk[q->rd_e] = (struct gd_tf){(uint8_t)(out.rd_valid_o & 1u), (uint32_t)out.rd_abs_o,
                                          (uint16_t)out.rd_smem_o};
        retire(q, q->rd_e);
        trebuild(T, q->rd_e);
        q->reads++;
    }
    q->due = rd < NT;
    if (rd < NT) {
        q->rd_e = rd;
        q->rd_edge = now;
        T->twant = T->tsent[rd];
        memset(T->want_tvec, 0, sizeof T->want_tvec);
        for (uint32_t t = 0; t < NT; t++)
            if (T->tsent[t].valid) {
                T->want_tvec[0] |= 1u << t;
                T->want_tvec[1] |= (uint32_t)hd_gpuduet_tbct_smem_present(T->tsent[t].smem) << t;
                T->want_tvec[2] |= (uint32_t)(T->tsent[t].abs == 0) << t;
            }
    }
    return 0;
}

int gd_tab_cycle(struct gd_tab *T, uint64_t now, bool *busy, char *err, size_t errlen)
{
    if (step_wct(T, now, err, errlen) != 0 || step_tbct(T, now, err, errlen) != 0)
        return -1;
    *busy |= T->wq.n || T->tq.n || T->wq.due || T->tq.due || rd_pending(&T->wq) ||
             rd_pending(&T->tq);
    return 0;
}

void gd_tab_counts(const struct gd_tab *T, uint64_t c[4])
{
    c[0] += T->wq.writes;
    c[1] += T->wq.reads;
    c[2] += T->tq.writes;
    c[3] += T->tq.reads;
}
/* }==== */
