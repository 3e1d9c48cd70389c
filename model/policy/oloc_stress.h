/* SPDX-License-Identifier: MIT
 * oloc_stress.h - the operand-location stress policy: a generic, seeded policy for the hook of
 * sm_oloc.h that places random registers in the scratchpad, in an operand cache or swapped out
 * to memory, and moves them at random cycles, so that every path of the substrate (reads from
 * policy ports, fills from a port and from memory, retries, destination write ports, the
 * scratchpad banks shared with ld/st.shared) is exercised by every workload (issue 25 items 5
 * and 8; docs/oloc.md). Not a paper's mechanism: EXPARS and Zorua get their own folders.
 *
 * Design: three ports after the register banks: the scratchpad (1 read and 1 write per cycle;
 * the scratchpad banks when spad_shared), an operand cache (2 reads, 2 writes per cycle) and a
 * swap buffer (unused for reads: a swapped register is fetched by a memory load into the
 * operand cache). Each (warp slot, register) pair hashes to one of 4096 entries per SM (aliases
 * share a place, which is harmless for a stress mode). Move points come at random intervals in
 * [period/2, 3 period/2) (a hash of the seed, the SM and the point's number); at each point an
 * entry is, with probability rate, away from its bank: in the scratchpad (read there), in the
 * scratchpad and not cached (a fill from the scratchpad port into the operand cache, 2 cycles)
 * or swapped (a 128-byte SWAP load from the SM's swap window into the operand cache), a third
 * each; otherwise in its bank. The draw is a pure function of (seed, SM, point, entry), so the
 * placement at a cycle does not depend on when the policy was last asked; a fill or a write
 * puts the entry in the operand cache until the next point (a write allocates there). Moves
 * cost nothing here: what a register's place costs is paid when it is read (the mover and swap
 * engine of issue 25 items 3 and 4 model moving data).
 */
#ifndef HD_OLOC_STRESS_H
#define HD_OLOC_STRESS_H

#include "sm_oloc.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_oloc_stress_params {
    uint64_t period;   /* mean cycles between move points; 0: the stress policy is off */
    double rate;       /* probability that a register is away from its bank after a point */
    uint64_t seed;
    bool spad_shared;  /* the scratchpad port is the shared-memory banks (else separate) */
};

/* The policy for SM sm_id of an SM with reg_banks register banks: *ops and a new *impl (freed
 * by ops->destroy). Returns 0, or -1 when out of host memory. */
int hd_oloc_stress_create(const struct hd_oloc_stress_params *p, uint32_t sm_id,
                          uint32_t reg_banks, const struct hd_oloc_ops **ops, void **impl);

#endif
