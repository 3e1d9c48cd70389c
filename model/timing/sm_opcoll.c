/* SPDX-License-Identifier: MIT
 * sm_opcoll.c - operand collectors over the banked register file, dispatch into the execution
 * pipelines, the result bus, and the event wheel that performs writebacks.
 *
 * Design: an instruction issued to unit type U takes one of U's collector units (cu_sp, cu_sfu,
 * cu_dp, cu_mem). From the next cycle on, the collector reads its source words from the register
 * banks: bank = (register number + warp slot, if reg_bank_warp_offset) mod reg_banks, each bank
 * serving reg_bank_reads reads per cycle to the oldest collectors first; a read that finds its
 * bank taken waits a cycle (a register-bank conflict). Register numbers are our allocator's
 * physical registers whatever count occupancy uses, folded into the launch's per-thread budget
 * when that is smaller (ptxas fitted the kernel in fewer: model/config/regs_source.h). The cycle
 * after its last read (the cycle after issue for an instruction without register operands) the
 * collector may dispatch ([pipeline] oc_alloc_cycles delays the first read, alu_dispatch_cycles
 * the dispatch of non-memory instructions: GPGPU-Sim's allocate_cu cycle and its execute()
 * order, the parity configuration's 1 and 1): SP, SFU
 * and DP instructions need a pipeline whose initiation interval has elapsed and, if they write a
 * result, a free result-bus port in the cycle they finish (lat cycles later, wb_ports per cycle);
 * memory instructions go to a free load/store unit (sm_ldst.c). So a dependent instruction
 * issues lat + 2 cycles after its producer when nothing conflicts. Writebacks and decodes are
 * events in a timing wheel of 2^k buckets (k from the longest delay); nothing is allocated per
 * instruction. An operand-location policy (sm_oloc.h), when installed, says per word which port
 * it is read from (a bank, or one of the policy's ports after them) and with what latency, may
 * say "not here yet" (a fill first), and where writebacks go (sm_oloc_port.c, docs/oloc.md).
 */
#include "sm_impl.h"

#include "regs_source.h"

#include <stdlib.h>
#include <string.h>

int hd_sm_opcoll_init(struct hd_sm *sm)
{
    const struct hd_sm_params *p = sm->p;
    sm->ncu = 0;
    for (int u = 0; u < HD_TU_COUNT; u++) {
        sm->cu_first[u] = sm->ncu;
        uint32_t n = p->units[u] ? p->cus[u] : 0;
        sm->cu_free[u] = n;
        sm->ncu += n;
    }
    sm->cu = calloc(sm->ncu + 1, sizeof *sm->cu);
    sm->cu_order = calloc(sm->ncu + 1, sizeof *sm->cu_order);
    sm->memops = calloc(sm->ncu + 1, sizeof *sm->memops);
    const uint32_t ports = p->reg_banks + HD_OLOC_MAX_PORTS; /* banks, then sm_oloc.h's ports */
    sm->bank_stamp = malloc(ports * sizeof *sm->bank_stamp);
    sm->bank_cnt = calloc(ports, 1);
    if (!sm->cu || !sm->cu_order || !sm->memops || !sm->bank_stamp || !sm->bank_cnt)
        return -1;
    for (uint32_t b = 0; b < ports; b++)
        sm->bank_stamp[b] = UINT64_MAX;
    for (int u = 0; u < HD_TU_COUNT; u++)
        for (uint32_t i = 0; i < sm->cu_free[u]; i++) {
            struct hd_cu *c = &sm->cu[sm->cu_first[u] + i];
            c->unit = (uint8_t)u;
            c->memop = sm->cu_first[u] + i;
        }
    for (int u = 0; u < HD_TU_COUNT; u++) {
        sm->unit_free[u] = calloc(p->units[u] + 1, sizeof *sm->unit_free[u]);
        if (!sm->unit_free[u])
            return -1;
    }
    uint32_t wheel = 1;
    while (wheel <= p->max_delay)
        wheel *= 2;
    sm->wheel_mask = wheel - 1;
    sm->wb_stamp = malloc(wheel * sizeof *sm->wb_stamp);
    sm->wb_cnt = calloc(wheel, 1);
    sm->wheel_head = malloc(wheel * sizeof *sm->wheel_head);
    sm->wheel_tail = malloc(wheel * sizeof *sm->wheel_tail);
    sm->ev_cap = p->max_warps * 4 + 256;
    sm->ev = malloc(sm->ev_cap * sizeof *sm->ev);
    if (!sm->wb_stamp || !sm->wb_cnt || !sm->wheel_head || !sm->wheel_tail || !sm->ev)
        return -1;
    for (uint32_t b = 0; b < wheel; b++) {
        sm->wb_stamp[b] = UINT64_MAX;
        sm->wheel_head[b] = sm->wheel_tail[b] = HD_SM_NONE;
    }
    sm->ev_free = HD_SM_NONE;
    for (uint32_t e = sm->ev_cap; e-- > 0;) {
        sm->ev[e].next = sm->ev_free;
        sm->ev_free = e;
    }
    return 0;
}

/* {==== Events ==== */
static bool ev_grow(struct hd_sm *sm)
{
    uint32_t ncap = sm->ev_cap * 2;
    struct hd_event *e = realloc(sm->ev, ncap * sizeof *e);
    if (!e)
        return false;
    sm->ev = e;
    for (uint32_t i = ncap; i-- > sm->ev_cap;) {
        sm->ev[i].next = sm->ev_free;
        sm->ev_free = i;
    }
    sm->ev_cap = ncap;
    return true;
}

bool hd_sm_event(struct hd_sm *sm, uint64_t now, uint32_t delay, uint8_t type, uint32_t warp,
                 uint32_t pc, uint32_t n)
{
    if (sm->ev_free == HD_SM_NONE && !ev_grow(sm))
        return false;
    if (delay == 0)
        delay = 1;
    if (delay > sm->wheel_mask)
        delay = sm->wheel_mask; /* cannot happen: max_delay bounds every delay */
    uint32_t e = sm->ev_free;
    sm->ev_free = sm->ev[e].next;
    sm->ev[e] = (struct hd_event){HD_SM_NONE, warp, pc, n, type};
    uint32_t b = (uint32_t)((now + delay) & sm->wheel_mask);
    if (sm->wheel_tail[b] == HD_SM_NONE)
        sm->wheel_head[b] = e;
    else
        sm->ev[sm->wheel_tail[b]].next = e;
    sm->wheel_tail[b] = e;
    sm->nev++;
    return true;
}

bool hd_sm_events(struct hd_sm *sm, uint64_t now)
{
    uint32_t b = (uint32_t)(now & sm->wheel_mask);
    uint32_t e = sm->wheel_head[b];
    if (e == HD_SM_NONE)
        return false;
    sm->wheel_head[b] = sm->wheel_tail[b] = HD_SM_NONE;
    while (e != HD_SM_NONE) {
        struct hd_event ev = sm->ev[e];
        sm->ev[e].next = sm->ev_free;
        sm->ev_free = e;
        sm->nev--;
        struct hd_twarp *w = &sm->w[ev.warp];
        if (ev.type == HD_EV_DECODE) {
            w->ib_pc = ev.pc;
            w->ib_n = ev.n;
            w->fetch_pc = ev.pc + ev.n;
            w->fetch_busy = false;
            hd_sm_warp_eval(sm, w, now);
        } else if (sm->oloc.ops && !hd_sm_oloc_write(sm, ev.warp, ev.pc, now)) {
            hd_sm_event(sm, now, 1, ev.type, ev.warp, ev.pc, ev.n); /* its write port: a cycle */
        } else {
            hd_sm_sb_release(sm, w, ev.pc);
            w->inflight--;
            hd_sm_warp_eval(sm, w, now);
            hd_sm_warp_check_drained(sm, w, now);
        }
        e = ev.next;
    }
    return true;
}
/* }==== */

/* {==== Collector units ==== */
uint32_t hd_sm_cu_find(const struct hd_sm *sm, uint8_t u)
{
    if (u >= HD_TU_COUNT || sm->cu_free[u] == 0)
        return HD_SM_NONE;
    uint32_t first = sm->cu_first[u], n = sm->p->units[u] ? sm->p->cus[u] : 0;
    for (uint32_t i = 0; i < n; i++)
        if (!sm->cu[first + i].busy)
            return first + i;
    return HD_SM_NONE;
}

void hd_sm_cu_alloc(struct hd_sm *sm, uint32_t c, struct hd_twarp *w, uint32_t pc,
                    const struct hd_tinstr *ti, bool has_dst, uint64_t now)
{
    const struct hd_sm_params *p = sm->p;
    struct hd_cu *cu = &sm->cu[c];
    cu->busy = true;
    cu->cls = ti->cls;
    cu->warp = w->slot;
    cu->pc = pc;
    cu->has_dst = has_dst;
    cu->alloc_cycle = now;
    cu->ready_at = UINT64_MAX;
    const uint32_t off = p->bank_warp_offset ? w->slot : 0;
    cu->nread = ti->nwords;
    cu->lat = 0;
    cu->stage = 0;
    if (sm->oloc.ops) { /* operand locations (sm_oloc_port.c) */
        hd_sm_oloc_locate(sm, c, w, ti, off, now);
    } else {
        const struct hd_sm_launch *la = sm->cta[w->cta].la;
        const uint32_t budget = la ? la->bank_budget : 0;
        for (unsigned i = 0; i < ti->nwords; i++)
            cu->bank[i] = (uint16_t)((hd_regs_bank_fold(ti->word[i], budget) + off) %
                                     p->reg_banks);
    }
    sm->cu_order[sm->ncu_order++] = c;
    sm->cu_free[cu->unit]--;
}

static void hd_sm_cu_release(struct hd_sm *sm, uint32_t c)
{
    struct hd_cu *cu = &sm->cu[c];
    cu->busy = false;
    sm->cu_free[cu->unit]++;
    for (uint32_t i = 0; i < sm->ncu_order; i++)
        if (sm->cu_order[i] == c) {
            memmove(&sm->cu_order[i], &sm->cu_order[i + 1],
                    (sm->ncu_order - i - 1) * sizeof *sm->cu_order);
            sm->ncu_order--;
            break;
        }
}

bool hd_sm_read_operands(struct hd_sm *sm, uint64_t now)
{
    const uint32_t reads = sm->p->bank_reads, nbanks = sm->p->reg_banks;
    bool progress = false;
    for (uint32_t i = 0; i < sm->ncu_order; i++) {
        struct hd_cu *cu = &sm->cu[sm->cu_order[i]];
        if (cu->ready_at != UINT64_MAX || cu->alloc_cycle + sm->p->oc_alloc_cycles >= now)
            continue;
        if (sm->oloc.ops) { /* locations that can miss: fills and retries (sm_oloc_port.c) */
            progress |= hd_sm_oloc_read(sm, cu, now);
            continue;
        }
        unsigned left = 0, from_ports = 0;
        for (unsigned j = 0; j < cu->nread; j++) {
            uint16_t b = cu->bank[j];
            if (sm->bank_stamp[b] != now) {
                sm->bank_stamp[b] = now;
                sm->bank_cnt[b] = 0;
            }
            if (sm->bank_cnt[b] < (b < nbanks ? reads : sm->oloc.ops->port_reads[b - nbanks])) {
                sm->bank_cnt[b]++;
                sm->st->reg_reads++;
                from_ports += b >= nbanks;
                progress = true;
            } else {
                cu->bank[left++] = b;
                sm->st->reg_bank_conflicts++;
            }
        }
        if (cu->nread > left) { /* energy-model events (model/power) */
            const struct hd_sm_launch *la = sm->cta[sm->w[cu->warp].cta].la;
            sm->st->oloc_reads += from_ports;
            if (la) {
                la->info->c.reg_reads += cu->nread - left;
                la->info->c.oloc_reads += from_ports;
            }
        }
        cu->nread = (uint8_t)left;
        if (left == 0) {
            cu->ready_at = now + 1 + cu->lat +
                           (cu->unit == HD_TU_MEM ? 0 : sm->p->alu_dispatch_cycles);
            progress = true;
        }
    }
    return progress;
}
/* }==== */

/* {==== Dispatch into the SP / SFU / DP pipelines ==== */
static bool exec_dispatch(struct hd_sm *sm, struct hd_cu *cu, uint64_t now)
{
    const struct hd_sm_params *p = sm->p;
    const uint8_t u = cu->unit;
    uint32_t inst = HD_SM_NONE;
    for (uint32_t i = 0; i < p->units[u]; i++)
        if (sm->unit_free[u][i] <= now) {
            inst = i;
            break;
        }
    if (inst == HD_SM_NONE)
        return false;
    const uint32_t lat = p->lat[cu->cls] + cu->stage; /* a lookup stage: the result later */
    struct hd_twarp *w = &sm->w[cu->warp];
    if (cu->has_dst) {
        uint64_t done = now + lat;
        uint32_t b = (uint32_t)(done & sm->wheel_mask);
        if (sm->wb_stamp[b] != done) {
            sm->wb_stamp[b] = done;
            sm->wb_cnt[b] = 0;
        }
        if (sm->wb_cnt[b] >= p->wb_ports)
            return false;
        if (!hd_sm_event(sm, now, lat, HD_EV_WB, cu->warp, cu->pc, 0))
            return false;
        sm->wb_cnt[b]++;
    } else {
        w->inflight--;
        hd_sm_warp_check_drained(sm, w, now);
    }
    sm->unit_free[u][inst] = now + p->ii[cu->cls];
    return true;
}

bool hd_sm_dispatch(struct hd_sm *sm, uint64_t now)
{
    bool progress = false;
    for (uint32_t i = 0; i < sm->ncu_order;) {
        uint32_t c = sm->cu_order[i];
        struct hd_cu *cu = &sm->cu[c];
        if (cu->ready_at > now) {
            i++;
            continue;
        }
        bool ok = cu->unit == HD_TU_MEM ? hd_sm_ldst_dispatch(sm, c, now)
                                        : exec_dispatch(sm, cu, now);
        if (!ok) {
            sm->st->dispatch_stalls++;
            i++;
            continue;
        }
        hd_sm_cu_release(sm, c); /* removes entry i; the next one moves into place */
        progress = true;
    }
    return progress;
}
/* }==== */
