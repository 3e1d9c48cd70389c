/* SPDX-License-Identifier: MIT
 * ctx_idem.h - the flush bit as Shieh's thesis §3.3 defines it (digest §2.4, §7 item 4; Chimera's
 * relaxed idempotence): a CTA may be flushed (dropped and restarted from its first instruction)
 * while re-running it gives the same result, i.e. until its first atomic to global memory or its
 * first store to global data it read earlier. `[context] flush_bit = idempotence` selects this
 * rule; `store` (the default) clears the bit at any global store or atomic.
 *
 * The global lines (128 B) a CTA has loaded are kept in a Bloom filter of HD_IDEM_BITS bits per
 * context (two hashes), so the test is conservative: a store to a line never read may be taken
 * for an overwrite (a false positive only clears the bit early, which is safe), an overwrite is
 * never missed. A kernel that reads its inputs and writes other buffers (Table 4.2's idempotent
 * kernels) keeps its bit but for such false positives.
 */
#ifndef HD_CTX_IDEM_H
#define HD_CTX_IDEM_H

#include <stdbool.h>
#include <stdint.h>

struct hd_func_trace;

#define HD_IDEM_WORDS 64u                  /* 4096 bits per context */
#define HD_IDEM_BITS (HD_IDEM_WORDS * 64u)
#define HD_IDEM_LINE_SHIFT 7u              /* 128-byte lines */

/* One issued instruction's trace under the idempotence rule: records the global lines it
 * loads in `bloom` and returns true when it breaks idempotence (an atomic on global memory, or
 * a store to a global line recorded before). */
bool hd_idem_step(uint64_t bloom[HD_IDEM_WORDS], const struct hd_func_trace *tr);

#endif
