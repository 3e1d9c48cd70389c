/* SPDX-License-Identifier: MIT
 * sm_oloc_port.c - the SM side of operand locations that can miss (sm_oloc.h; issue 25 item 5;
 * docs/oloc.md): fills of words that are not where they are read yet, destination write ports,
 * and the scratchpad banks that collector accesses and ld/st.shared share.
 *
 * Design. Nothing here runs without a policy: the collector (sm_opcoll.c), the event wheel and
 * the load/store unit (sm_ldst.c) test sm->oloc.ops and call in only when it is set.
 *   Words. At allocation every source word is located (q.now = the issue cycle). A word that is
 *   present gets its port; a word that is "not here yet" (miss) waits for its fill. Each cycle
 *   from the collector's first read cycle on, in word order: a present word takes a read slot of
 *   its port (as sm_opcoll.c does); a missing word issues its fill: from a port (the fill takes
 *   a read slot of fill_port like an operand read and lands fill_latency cycles later) or as a
 *   memory load of fill_bytes at fill_addr (class SWAP, L1 bypassed, tag HD_TAG_OLOC: collector,
 *   word, serial); a send the memory interface refuses is retried the next cycle. In the cycle a
 *   fill lands (a port fill's landing cycle; a memory response's receive cycle, which comes
 *   before the collectors in the tick) the policy's filled() is told, the word is located again
 *   and, if present now, read in that same cycle; a word that misses again is filled again. The
 *   collector's ready cycle is computed as always: the cycle after its last read + latency.
 *   Writes. A writeback (HD_EV_WB) asks locate_dst() for each destination word; each policy port
 *   it writes takes one of that port's port_writes[i] slots in the writeback's cycle (one slot
 *   for all the words of one instruction in one port: a wide write); if any is taken the
 *   writeback waits a cycle, taking nothing. Register-bank writes are not limited here (the
 *   result bus is, at dispatch). A global load's last response writes its destinations when it
 *   arrives: counted, never delayed.
 *   Scratchpad banks. The policy ports in spad_ports are the scratchpad's banks: one pass per
 *   cycle serves one warp register (read, fill or write of such a port) or one conflict-degree
 *   pass of an ld/st.shared. spad_next is the first free cycle: an ld/st.shared of degree d
 *   dispatched at t starts at max(t, spad_next) and holds [start, start + d); a read, fill or
 *   write at t needs spad_next <= t and takes t. In a cycle the stages run writebacks, then
 *   dispatch (ld/st.shared), then collector reads and fills (the tick's order): that is the
 *   arbiter's priority.
 */
#include "sm_impl.h"

#include "regs_source.h"

#include <stdlib.h>
#include <string.h>

enum { OW_DONE, OW_READ, OW_FILL, OW_WAIT, OW_LANDED };

struct oloc_word {
    uint16_t reg, bank;  /* the query's register number and default bank */
    uint16_t port;       /* OW_READ: where it is read */
    uint8_t st;          /* OW_* */
    uint8_t mem;         /* the fill is a memory request */
    uint16_t fport, flat;
    uint32_t fbytes;
    uint64_t faddr;
    uint8_t fcached; /* the fill may be served by the L1 (hd_oloc.fill_cached) */
    uint64_t land;       /* OW_WAIT, port fill: the landing cycle */
};

struct oloc_cu {
    uint32_t serial;     /* allocations of this collector (a memory fill's tag carries it) */
    uint8_t n;           /* words of the instruction */
    struct oloc_word w[HD_TK_MAX_WORDS];
};

struct hd_oloc_sm {
    struct oloc_cu *cu;  /* [ncu] */
    uint64_t spad_next;  /* first cycle the scratchpad banks are free */
    uint64_t *wstamp;    /* [ports] the cycle of wcnt */
    uint8_t *wcnt;       /* [ports] write slots taken in that cycle */
    bool own;            /* the SM destroys the policy */
};

bool hd_sm_oloc_install(struct hd_sm *sm, const struct hd_oloc_ops *ops, void *impl, bool own)
{
    hd_sm_oloc_free(sm);
    sm->oloc.ops = ops;
    sm->oloc.impl = ops ? impl : NULL;
    if (!ops)
        return true;
    const uint32_t ports = sm->p->reg_banks + HD_OLOC_MAX_PORTS;
    struct hd_oloc_sm *x = calloc(1, sizeof *x);
    if (x) {
        x->cu = calloc(sm->ncu + 1, sizeof *x->cu);
        x->wstamp = malloc(ports * sizeof *x->wstamp);
        x->wcnt = calloc(ports, 1);
    }
    if (!x || !x->cu || !x->wstamp || !x->wcnt) {
        if (x) {
            free(x->cu);
            free(x->wstamp);
            free(x->wcnt);
        }
        free(x);
        sm->oloc.ops = NULL;
        sm->oloc.impl = NULL;
        return false;
    }
    for (uint32_t b = 0; b < ports; b++)
        x->wstamp[b] = UINT64_MAX;
    x->own = own;
    sm->olx = x;
    return true;
}

void hd_sm_oloc_free(struct hd_sm *sm)
{
    struct hd_oloc_sm *x = sm->olx;
    if (!x)
        return;
    if (x->own && sm->oloc.ops && sm->oloc.ops->destroy)
        sm->oloc.ops->destroy(sm->oloc.impl);
    free(x->cu);
    free(x->wstamp);
    free(x->wcnt);
    free(x);
    sm->olx = NULL;
    sm->oloc.ops = NULL;
    sm->oloc.impl = NULL;
}

static bool spad_port(const struct hd_sm *sm, uint32_t port)
{
    const uint32_t nb = sm->p->reg_banks;
    return port >= nb && (sm->oloc.ops->spad_ports >> (port - nb) & 1u);
}

/* The query of collector cu's word (register reg, default bank) at cycle now. */
static struct hd_oloc_query query(const struct hd_sm *sm, const struct hd_cu *cu, uint32_t reg,
                                  uint32_t bank, uint64_t now, bool dst)
{
    const struct hd_twarp *w = &sm->w[cu->warp];
    const struct hd_tcta *c = &sm->cta[w->cta];
    return (struct hd_oloc_query){w->slot, w->cta, c->la ? c->la->id : 0, cu->pc, reg, bank,
                                  now, dst, c->la ? c->la->l->k : NULL,
                                  c->la && c->la->tk ? c->la->tk->an : NULL, w->fw,
                                  (uint32_t)(cu - sm->cu), c->la ? c->la->bank_budget : 0};
}

/* Locate word ow (its reg and bank set) into its state; the collector's latency grows. */
static void locate_word(struct hd_sm *sm, struct hd_cu *cu, struct oloc_word *ow, uint64_t now)
{
    const struct hd_oloc_slot *o = &sm->oloc;
    const uint32_t nports = sm->p->reg_banks + o->ops->nports;
    const struct hd_oloc_query q = query(sm, cu, ow->reg, ow->bank, now, false);
    struct hd_oloc l = {.kind = HD_OLOC_REGBANK, .port = ow->bank};
    o->ops->locate(o->impl, &q, &l);
    cu->lat = l.latency > cu->lat ? l.latency : cu->lat;
    cu->stage = l.stage > cu->stage ? l.stage : cu->stage;
    if (l.miss == HD_OLOC_FILL_PORT || l.miss == HD_OLOC_FILL_MEM) {
        ow->st = OW_FILL;
        ow->mem = l.miss == HD_OLOC_FILL_MEM;
        ow->fport = (uint16_t)(l.fill_port < nports ? l.fill_port : ow->bank);
        ow->flat = l.fill_latency ? l.fill_latency : 1;
        ow->fbytes = l.fill_bytes ? l.fill_bytes : 128;
        ow->faddr = l.fill_addr;
        ow->fcached = l.fill_cached;
        return;
    }
    ow->st = OW_READ;
    ow->port = (uint16_t)(l.port < nports ? l.port : ow->bank);
}

void hd_sm_oloc_locate(struct hd_sm *sm, uint32_t c, const struct hd_twarp *w,
                       const struct hd_tinstr *ti, uint32_t off, uint64_t now)
{
    struct hd_cu *cu = &sm->cu[c];
    struct oloc_cu *x = &sm->olx->cu[c];
    const struct hd_tcta *ct = &sm->cta[w->cta];
    const uint32_t budget = ct->la ? ct->la->bank_budget : 0;
    x->serial++;
    x->n = ti->nwords;
    for (unsigned i = 0; i < ti->nwords; i++) {
        struct oloc_word *ow = &x->w[i];
        ow->reg = (uint16_t)hd_regs_bank_fold(ti->word[i], budget);
        ow->bank = (uint16_t)((ow->reg + off) % sm->p->reg_banks);
        locate_word(sm, cu, ow, now);
        cu->bank[i] = ow->st == OW_READ ? ow->port : ow->bank; /* (not read from cu->bank) */
    }
}

/* Take a read slot of port b in cycle now (and the scratchpad banks if b is theirs). */
static bool port_take(struct hd_sm *sm, uint32_t b, uint64_t now)
{
    const uint32_t nbanks = sm->p->reg_banks;
    if (sm->bank_stamp[b] != now) {
        sm->bank_stamp[b] = now;
        sm->bank_cnt[b] = 0;
    }
    const uint32_t cap = b < nbanks ? sm->p->bank_reads : sm->oloc.ops->port_reads[b - nbanks];
    if (sm->bank_cnt[b] >= cap)
        return false;
    if (spad_port(sm, b)) {
        bool free = sm->olx->spad_next <= now;
        if (sm->oloc.ops->spad_arb) /* the policy's arbiter block decides (equal or stopped) */
            free = sm->oloc.ops->spad_arb(sm->oloc.impl, 0, 0, now, free) != 0;
        if (!free) {
            sm->st->oloc_spad_conflicts++;
            return false;
        }
        sm->olx->spad_next = now + 1;
    }
    sm->bank_cnt[b]++;
    return true;
}

static bool send_fill(struct hd_sm *sm, const struct hd_cu *cu, uint32_t word,
                      const struct oloc_word *ow, uint64_t now)
{
    const struct hd_tcta *c = &sm->cta[sm->w[cu->warp].cta];
    const uint32_t ci = (uint32_t)(cu - sm->cu);
    struct hd_mem_req r = {0};
    r.addr = ow->faddr;
    r.bytes = ow->fbytes;
    r.kind = HD_MEM_LOAD;
    r.space = HD_SPACE_GLOBAL;
    r.flags = ow->fcached ? 0u : HD_MEMF_BYPASS_L1;
    r.cls = HD_MCLASS_SWAP;
    r.sm = (uint16_t)sm->id;
    r.kernel = c->la ? c->la->id : 0;
    r.tag = hd_tag_make(HD_TAG_OLOC, (uint64_t)ci | (uint64_t)word << 16 |
                                         (uint64_t)sm->olx->cu[ci].serial << 24);
    return sm->mem->ops->send(sm->mem->impl, &r, now);
}

bool hd_sm_oloc_read(struct hd_sm *sm, struct hd_cu *cu, uint64_t now)
{
    const uint32_t nbanks = sm->p->reg_banks;
    struct oloc_cu *x = &sm->olx->cu[cu - sm->cu];
    const struct hd_oloc_slot *o = &sm->oloc;
    bool progress = false, waiting = false;
    unsigned left = 0, nread = 0, from_ports = 0;
    for (unsigned j = 0; j < x->n; j++) {
        struct oloc_word *ow = &x->w[j];
        if (ow->st == OW_WAIT && !ow->mem && ow->land <= now)
            ow->st = OW_LANDED;
        if (ow->st == OW_LANDED) { /* the fill is in: tell the policy, then retry */
            const struct hd_oloc_query q = query(sm, cu, ow->reg, ow->bank, now, false);
            if (o->ops->filled)
                o->ops->filled(o->impl, &q);
            locate_word(sm, cu, ow, now);
            progress = true;
        }
        switch (ow->st) {
        case OW_READ:
            if (port_take(sm, ow->port, now)) {
                ow->st = OW_DONE;
                nread++;
                from_ports += ow->port >= nbanks;
                progress = true;
            } else {
                sm->st->reg_bank_conflicts++;
                left++;
            }
            break;
        case OW_FILL:
            if (ow->mem ? send_fill(sm, cu, j, ow, now) : port_take(sm, ow->fport, now)) {
                ow->st = OW_WAIT;
                ow->land = now + ow->flat;
                if (ow->mem)
                    sm->st->oloc_fills_mem++;
                else
                    sm->st->oloc_fills++;
                progress = true;
            }
            waiting = true;
            left++;
            break;
        case OW_WAIT:
            waiting = true;
            left++;
            break;
        default:
            break;
        }
    }
    sm->st->oloc_fill_cycles += waiting;
    if (nread) { /* energy-model events (model/power), as sm_opcoll.c counts them */
        const struct hd_sm_launch *la = sm->cta[sm->w[cu->warp].cta].la;
        sm->st->reg_reads += nread;
        sm->st->oloc_reads += from_ports;
        if (la) {
            la->info->c.reg_reads += nread;
            la->info->c.oloc_reads += from_ports;
        }
    }
    cu->nread = (uint8_t)left;
    if (left == 0) {
        cu->ready_at = now + 1 + cu->lat +
                       (cu->unit == HD_TU_MEM ? 0 : sm->p->alu_dispatch_cycles);
        progress = true;
    }
    return progress;
}

void hd_sm_oloc_response(struct hd_sm *sm, uint64_t payload, uint64_t now)
{
    const uint32_t ci = (uint32_t)(payload & 0xFFFF), word = (uint32_t)(payload >> 16 & 0xFF);
    const uint32_t serial = (uint32_t)(payload >> 24);
    (void)now;
    if (!sm->olx || ci >= sm->ncu || !sm->cu[ci].busy)
        return; /* the policy was removed or the collector freed (an aborted run) */
    struct oloc_cu *x = &sm->olx->cu[ci];
    if (x->serial != serial || word >= x->n || x->w[word].st != OW_WAIT || !x->w[word].mem)
        return;
    x->w[word].st = OW_LANDED; /* read_operands of this cycle retries it */
}

/* The policy ports the destinations of warp w's instruction at pc are written to, as a set of
 * bits of the policy's port numbers; 0 when none (or no locate_dst, or a spill fill). */
static uint64_t dst_ports(struct hd_sm *sm, const struct hd_twarp *w, uint32_t pc, uint64_t now)
{
    const struct hd_oloc_slot *o = &sm->oloc;
    const struct hd_tcta *c = &sm->cta[w->cta];
    if (!o->ops->locate_dst || (pc & HD_PC_SPILL) || !c->la || !c->la->tk ||
        pc >= c->la->l->k->ncode)
        return 0;
    const struct hd_tinstr *ti = &c->la->tk->in[pc];
    const uint32_t nbanks = sm->p->reg_banks, nports = nbanks + o->ops->nports;
    const uint32_t budget = c->la->bank_budget;
    const uint32_t off = sm->p->bank_warp_offset ? w->slot : 0;
    struct hd_oloc_query q = {w->slot, w->cta, c->la->id, pc, 0, 0, now, true, c->la->l->k,
                              c->la->tk->an, w->fw, 0, budget};
    uint64_t set = 0;
    for (unsigned i = 0; i < ti->ndst; i++) {
        q.reg = hd_regs_bank_fold(ti->dst[i], budget);
        q.bank = (q.reg + off) % nbanks;
        struct hd_oloc l = {.kind = HD_OLOC_REGBANK, .port = (uint16_t)q.bank};
        o->ops->locate_dst(o->impl, &q, &l);
        if (l.port >= nbanks && l.port < nports)
            set |= 1ull << (l.port - nbanks);
    }
    return set;
}

static uint8_t write_slots(const struct hd_sm *sm, uint32_t i)
{
    const uint8_t *pw = sm->oloc.ops->port_writes;
    return pw ? pw[i] : 1;
}

bool hd_sm_oloc_write(struct hd_sm *sm, uint32_t warp, uint32_t pc, uint64_t now)
{
    struct hd_oloc_sm *x = sm->olx;
    const uint32_t nbanks = sm->p->reg_banks;
    const uint64_t set = dst_ports(sm, &sm->w[warp], pc, now);
    bool spad = false;
    for (uint64_t b = set; b; b &= b - 1) {
        const uint32_t i = (uint32_t)__builtin_ctzll(b), port = nbanks + i;
        if (x->wstamp[port] != now) {
            x->wstamp[port] = now;
            x->wcnt[port] = 0;
        }
        spad |= spad_port(sm, port);
        if (x->wcnt[port] >= write_slots(sm, i)) {
            sm->st->oloc_write_conflicts++;
            return false;
        }
    }
    bool busy = spad && x->spad_next > now;
    if (spad && sm->oloc.ops->spad_arb) /* the policy's arbiter block decides */
        busy = sm->oloc.ops->spad_arb(sm->oloc.impl, 0, 0, now, !busy) == 0;
    if (busy) {
        sm->st->oloc_spad_conflicts++;
        sm->st->oloc_write_conflicts++;
        return false;
    }
    if (spad)
        x->spad_next = now + 1;
    for (uint64_t b = set; b; b &= b - 1) {
        x->wcnt[nbanks + (uint32_t)__builtin_ctzll(b)]++;
        sm->st->oloc_writes++;
    }
    return true;
}

void hd_sm_oloc_load_written(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc, uint64_t now)
{
    sm->st->oloc_writes += (uint64_t)__builtin_popcountll(dst_ports(sm, w, pc, now));
}

uint32_t hd_sm_oloc_shared_wait(struct hd_sm *sm, uint32_t degree, uint64_t now)
{
    struct hd_oloc_sm *x = sm->olx;
    if (!x || !sm->oloc.ops->spad_ports)
        return 0; /* the policy's ports are not the shared banks */
    uint64_t start = x->spad_next > now ? x->spad_next : now;
    if (sm->oloc.ops->spad_arb) /* the policy's arbiter block decides the wait */
        start = now + sm->oloc.ops->spad_arb(sm->oloc.impl, 1, degree, now, start - now);
    x->spad_next = start + degree;
    sm->st->oloc_spad_conflicts += start - now;
    return (uint32_t)(start - now);
}

bool hd_sm_oloc_own(struct hd_sm *sm, uint64_t now)
{
    struct hd_oloc_sm *x = sm->olx;
    const struct hd_oloc_ops *ops = sm->oloc.ops;
    if (!x || !ops->spad_ports || !ops->spad_want || !ops->spad_want(sm->oloc.impl, now))
        return false;
    bool free = x->spad_next <= now;
    if (ops->spad_arb) /* the policy's arbiter block decides (equal or stopped) */
        free = ops->spad_arb(sm->oloc.impl, 0, 0, now, free) != 0;
    if (free)
        x->spad_next = now + 1;
    else
        sm->st->oloc_spad_conflicts++;
    if (ops->spad_took)
        ops->spad_took(sm->oloc.impl, now, free);
    return free;
}
