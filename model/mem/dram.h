/* SPDX-License-Identifier: MIT
 * dram.h - one GDDR5 channel: a fixed-latency path from the L2, a request queue, an FR-FCFS
 * command scheduler over banks and bank groups with the configured timing, and the read-data
 * returns. Runs in the DRAM command clock.
 *
 * Design. A request (an L2 line fill or write-back) needs ceil(bytes / burst_bytes) column
 * commands to one bank and row. Every DRAM cycle the controller issues at most one command:
 *   1. the oldest request whose row is open and whose column command (RD or WR) may issue now
 *      ("first ready"); with scheduler = fcfs only the oldest request is considered;
 *   2. otherwise the oldest request whose bank needs a precharge (open on another row, with no
 *      queued request hitting that open row) or an activate, if that command may issue now.
 * Constraints (all in command cycles; burst = burst_length / data_rate cycles on the data bus):
 *   ACT   bank closed; >= tRC after the bank's last ACT; >= tRP after its PRE; >= tRRD after any
 *         ACT of the channel; no refresh pending;
 *   PRE   >= tRAS after the ACT; >= tRTP after a RD of the bank; >= tWR after its write data;
 *   RD/WR row open; >= tRCD after the ACT; >= tCCD after the channel's last column command, or
 *         tCCDL if that was in the same bank group (bank b is in group b mod bank_groups); the data bus free at command + tCL (RD) or
 *         + tWL (WR); RD >= tWTR after the end of write data; WR >= tCL + burst + 2 - tWL after
 *         a RD (bus turnaround).
 * A read completes when its last burst's data has left the bus (cmd + tCL + burst); a write is
 * finished when its last burst is issued (nothing waits for it: the L2 acknowledges stores itself
 * and its write-backs are fire and forget, so a write only occupies queue space until then). With refresh on, every tREFI the channel stops
 * activating, precharges its banks and refreshes them all for tRFC. The request's first column
 * command classifies it as a row hit, or a row miss if an ACT had to be issued for it.
 *
 * Write batching (write_queue > 0; GPGPU-Sim 4 / Accel-Sim's separate write queue, the
 * write-drain policy of CPU and GPU controllers, e.g. Stuecheli et al., "The Virtual Write Queue",
 * ISCA 2010): writes wait in their own queue of write_queue entries, reads in the `queue` one. The
 * controller is in read mode or write mode and schedules (FR-FCFS as above, activates and
 * precharges included) from that mode's queue only. It enters write mode when the write queue
 * holds write_high entries, or when it holds any and no read is queued; it returns to read mode
 * when write_low writes not yet started remain and a read is waiting (or the write queue is
 * empty). Before a switch the requests of the old mode that issued part of their bursts finish
 * (nothing else starts meanwhile), so a drain leaves exactly write_low writes queued. The data
 * bus thus turns around once per batch instead of once per interleaved request.
 * Requests leave the fixed-latency path in order; one whose queue is full holds those behind it.
 * A read is not checked against queued writes of its line (the model keeps no data here). Every
 * column command in the other direction than the previous one counts a read/write turnaround.
 */
#ifndef HD_DRAM_H
#define HD_DRAM_H

#include "mem_params.h"
#include "mem_stats.h"
#include "mem_txn.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_dram_entry {
    uint64_t t_arrive;
    uint32_t id, row;
    uint16_t bank, bursts;
    bool write, acted, started;
};

struct hd_dram_bank {
    bool open;
    uint32_t row;
    uint64_t t_act, t_col, t_pre;
};

struct hd_dram {
    const struct hd_dram_params *p;
    unsigned ch;
    struct hd_txn_pool *pool;
    struct hd_mem_stats *st;
    struct hd_delay pipe;     /* from the L2: ready = push time + latency */
    struct hd_dram_entry *q;  /* [queue], arrival order (reads and, without batching, writes) */
    uint32_t nq;
    struct hd_dram_entry *wq; /* [write_queue], arrival order (write batching only) */
    uint32_t nwq;
    bool write_mode;          /* write batching: draining the write queue */
    bool last_write;          /* direction of the last column command (turnarounds) */
    struct hd_dram_bank *bank;
    uint64_t t_rrd, t_rd, t_wr, data_free, last_col;
    uint32_t last_group;
    bool any_col;
    struct hd_delay done;     /* reads: ready = data end */
    bool ref_pending;
    uint64_t next_ref;
};

int hd_dram_init(struct hd_dram *d, const struct hd_dram_params *p, unsigned ch,
                 struct hd_txn_pool *pool, struct hd_mem_stats *st);
void hd_dram_free(struct hd_dram *d);
/* A request from the L2 at DRAM cycle now (enters the fixed-latency path). */
bool hd_dram_push(struct hd_dram *d, uint32_t id, uint64_t now);
/* Has the controller queue that would take t (reads, or writes without batching: `queue`;
 * writes with batching: `write_queue`) a free entry now? (GPGPU-Sim dram_t::full) */
bool hd_dram_has_room(const struct hd_dram *d, const struct hd_txn *t);
/* One DRAM cycle. Returns true if anything moved. */
bool hd_dram_tick(struct hd_dram *d, uint64_t now);
/* A read finished by now (to return to its L2 slice), or HD_TXN_NONE. */
uint32_t hd_dram_pop_done(struct hd_dram *d, uint64_t now);
/* Work that needs the next cycle (queued requests, a pending refresh)? */
bool hd_dram_active(const struct hd_dram *d);
/* Earliest DRAM cycle at which something becomes ready (UINT64_MAX if none). */
uint64_t hd_dram_next_time(const struct hd_dram *d);
void hd_dram_reset(struct hd_dram *d);
int hd_dram_describe(const struct hd_dram *d, char *buf, size_t len);

#endif
