/* SPDX-License-Identifier: MIT
 * xbar.h - one input-queued crossbar network (the memory system has two: requests from the SMs
 * to the L2 slices, replies from the slices to the SMs), in its own clock domain.
 *
 * Design: each input port has a buffer of `input_flits` flits holding whole packets in arrival
 * order. A packet of F flits, once the switch connects its input to its output, holds both for
 * ceil(F / port_flits) cycles (one packet per input and per output at a time, as the papers'
 * crossbars: "non-blocking, one packet per output") and arrives `latency` cycles after its last
 * flit left. Allocation (Lin §4.2 / GPGPU-Sim config_fermi_islip.icnt):
 *   rr     each input is a FIFO: only its head packet competes (head-of-line blocking, Karol's
 *          58.6 % saturation for uniform traffic); each free output grants the next requesting
 *          input after its round-robin pointer;
 *   islip  the buffer acts as virtual output queues (the oldest packet for each output can go):
 *          `iters` rounds of request-grant-accept with grant and accept pointers that move only
 *          on first-round acceptances (McKeown's iSLIP). With `voq` false the buffer is one
 *          FIFO as in rr (one virtual channel per input: booksim's num_vcs = 1, which
 *          GPGPU-Sim's config_fermi_islip.icnt sets): each input requests only its head
 *          packet's output, so the matching reduces to a round-robin grant per output.
 * A connection to output o is made only while the owner's dest_ok(o, in_flight) says the
 * destination can take one more packet (credits: in_flight counts packets granted to o and not
 * yet popped). Arrivals per output are in order, so each output has a delay line. Packets are
 * the owner's 32-bit ids; the xbar never looks inside them.
 */
#ifndef HD_XBAR_H
#define HD_XBAR_H

#include "mem_params.h"
#include "mem_txn.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_xbar_pkt {
    uint64_t t_in;  /* cycle it entered the input buffer */
    uint32_t id;
    uint16_t out, flits;
};

struct hd_xbar_in {
    struct hd_xbar_pkt *q; /* ring of qcap */
    uint32_t qcap, head, count, flits;
    uint64_t busy_until;   /* first cycle it may start another packet */
    uint32_t accept_ptr;
};

struct hd_xbar_ops {
    /* May output `out` be connected (the destination has room for one more packet, counting
     * `in_flight` already granted to it)? */
    bool (*dest_ok)(void *ctx, unsigned out, unsigned in_flight);
    /* A packet was connected: waited `wait` cycles in its input buffer, holds its output for
     * `cycles`, arrives at `arrive`. */
    void (*granted)(void *ctx, uint32_t id, unsigned out, uint64_t wait, uint32_t cycles,
                    uint64_t arrive);
};

struct hd_xbar {
    uint32_t nin, nout;
    bool islip, voq;
    uint32_t iters, port_flits, latency, input_flits;
    struct hd_xbar_in *in;
    uint64_t *out_busy;      /* [nout] first free cycle */
    uint32_t *grant_ptr;     /* [nout] */
    uint32_t *in_flight;     /* [nout] */
    uint16_t *cnt;           /* [nin * nout] queued packets per (input, output) */
    uint64_t *req;           /* [nout * win] bitset: inputs with a packet for the output */
    uint64_t *hreq;          /* [nout * win] scratch (!voq): inputs whose head is for it */
    uint32_t win;            /* 64-bit words per input bitset */
    uint64_t *avail;         /* [win] scratch: inputs free and unmatched */
    struct hd_delay *arrive; /* [nout] */
    uint32_t queued;         /* packets in all input buffers */
    uint32_t moving;         /* packets granted and not yet popped */
    /* scratch for iSLIP */
    uint32_t *grant_of;      /* [nout] input granted, or UINT32_MAX */
    uint32_t *match_in;      /* [nin] output matched, or UINT32_MAX */
    uint32_t *match_out;     /* [nout] */
    const struct hd_xbar_ops *ops;
    void *ctx;
};

int hd_xbar_init(struct hd_xbar *x, uint32_t nin, uint32_t nout, const struct hd_icnt_params *p,
                 const struct hd_xbar_ops *ops, void *ctx);
void hd_xbar_free(struct hd_xbar *x);
/* Flits of a packet of `bytes` payload (plus the header). */
uint32_t hd_xbar_flits(const struct hd_icnt_params *p, uint32_t payload_bytes);
/* Room for a packet of `flits` at input `in`? (A packet larger than the buffer fits when the
 * buffer is empty.) */
bool hd_xbar_can_inject(const struct hd_xbar *x, unsigned in, uint32_t flits);
/* Queue a packet (can_inject must be true). Returns false on host out-of-memory. */
bool hd_xbar_inject(struct hd_xbar *x, unsigned in, unsigned out, uint32_t id, uint32_t flits,
                    uint64_t now);
/* Switch allocation for cycle `now`. Returns the number of connections made. */
uint32_t hd_xbar_cycle(struct hd_xbar *x, uint64_t now);
/* The next packet that has arrived at output `out` by `now`, or HD_TXN_NONE. */
uint32_t hd_xbar_pop(struct hd_xbar *x, unsigned out, uint64_t now);
/* The earliest arrival time among packets in flight (UINT64_MAX if none). */
uint64_t hd_xbar_next_arrival(const struct hd_xbar *x);
/* Drop everything. */
void hd_xbar_reset(struct hd_xbar *x);

#endif
