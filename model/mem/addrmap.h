/* SPDX-License-Identifier: MIT
 * addrmap.h - physical address to DRAM channel, memory sub-partition (L2 slice), bank, row and
 * column, by configurable bit fields ([addrmap]).
 *
 * Design (GPGPU-Sim's "dramid@N" scheme, which also handles channel counts that are not powers
 * of two): the channel is (addr >> channel_lsb) mod channels; the quotient
 * (addr >> channel_lsb) / channels takes the place of those bits, giving the channel-local
 * address, from which the bit lists pick the sub-partition, bank, row and column (each field's
 * bits concatenated, the first listed bit least significant). The L2 slice of a sub-partition
 * indexes its cache with the channel-local address with the sub-partition bits squeezed out, so
 * that every set of every slice is used whatever the interleave. Pure functions; no state.
 */
#ifndef HD_ADDRMAP_H
#define HD_ADDRMAP_H

#include "mem_params.h"

#include <stddef.h>
#include <stdint.h>

struct hd_addr_loc {
    uint32_t channel, sub, slice; /* slice = channel * slices_per_channel + sub */
    uint32_t bank, row, col;
    uint64_t local;               /* the slice's address (for L2 set and tag) */
};

/* Parse a bit list such as "8 13-15" (numbers and ranges separated by spaces or commas; bits
 * 0..63, each at most once). Returns 0, or -1 with a message in err. */
int hd_bitlist_parse(const char *text, struct hd_bitlist *out, char *err, size_t errlen);

/* Check the map against the channel, sub-partition and bank counts. Returns 0 or -1 with
 * "key 'X': message". */
int hd_addrmap_check(const struct hd_addrmap_params *m, uint32_t slices_per_channel,
                     uint32_t banks, char *err, size_t errlen);

void hd_addrmap_decode(const struct hd_addrmap_params *m, uint32_t slices_per_channel,
                       uint64_t addr, struct hd_addr_loc *out);

/* The location of a slice-local address of `slice` (the inverse of decode's `local`, for
 * write-backs of L2 lines); out->local = local. */
void hd_addrmap_from_local(const struct hd_addrmap_params *m, uint32_t slices_per_channel,
                           uint32_t slice, uint64_t local, struct hd_addr_loc *out);

#endif
