/* SPDX-License-Identifier: MIT
 * expars_oc_tags.h - bit-exact, cycle-exact C reference of EXPARS's operand-cache tag array
 * (Yu et al. TACO 2018 §3.3.4, §3.3.7, Fig. 8; digest ../shared/reference/papers/expars.md
 * §2.6, §3.1 "OC tags", §3.2 (c); RTL rtl/expars_oc_tags/expars_oc_tags.sv), one per SM; and
 * the tag functions the timing model's operand cache (model/mech/expars/expars_oc.[ch]) runs on
 * its own state, so that model and block share one implementation.
 *
 * What it holds, per line (one warp register, 128 B): valid, dirty and pinned bits, the tag
 * {warp slot, register} (the full register number: with ways = 1 the low log2(sets) bits are
 * implied by the line, the paper's 10-bit tag), a VW-bit version (the data-carrying stand-in the
 * model's checker compares, expars_oloc.c: cheap, 32 b per line) and an LRU age within its set
 * (0 = most recent; ages of a set are a permutation of 0..ways-1). The 128 B of data per line
 * are not in the block: they are an SRAM macro beside it (docs/blocks/expars.md).
 * Organisation: sets = lines / ways, set = register mod sets, bank = register mod banks; ways = 1
 * is the paper's direct-mapped reading (line = Reg[3:0]). Victim in a set: an invalid line, else
 * the least recently used unpinned clean one, else unpinned dirty, else any (the oldest).
 *
 * Operations (op_i; one per edge): PEEK (look up, no change), READ (look up; a hit becomes most
 * recent), WRITE (a hit: most recent, new version, dirty; a miss allocates the victim line dirty
 * with the version), PUT (install {warp, reg, version, dirty_i} in its own line if present, else
 * in the victim line; the line becomes most recent and unpinned), PIN (pin the line holding the
 * register), UNPIN (unpin every line of the warp), STEAL (unpin every pinned line of another
 * warp in the register's set), DROP (invalidate every line of the warp). Results (registered,
 * one cycle later): hit and line (a miss of PEEK/READ names the victim line; WRITE/PUT the line
 * written), the hit line's version, the victim / evicted line's contents (vic_v_o = 0 when
 * nothing is or would be evicted), the count of lines UNPIN/STEAL/DROP changed.
 * Storage (default 16 lines, 1 way): 16 x (1 + 1 + 1 + 6 + 8 + 32 + 1) = 800 flops; without the
 * versions and with the paper's 10-bit tags (Reg[5:4] only) 16 x 10 b = 20 B (§3.1).
 * Interface: rtl/expars_oc_tags/expars_oc_tags_ports.def.
 */
#ifndef HD_EXPARS_OC_TAGS_H
#define HD_EXPARS_OC_TAGS_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "expars_oc_tags_ports.def"
#define HD_PORTS_DIR IN
struct hd_expars_oc_tags_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_expars_oc_tags_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#define HD_EXPARS_OC_MAX_LINES 64

#ifndef __cplusplus
_Static_assert(EXPARS_OC_TAGS_Lines >= 1 && EXPARS_OC_TAGS_Lines <= HD_EXPARS_OC_MAX_LINES &&
                   EXPARS_OC_TAGS_Lines <= (1u << EXPARS_OC_TAGS_LW),
               "expars_oc_tags: Lines must be 1..64 and fit LW bits");
_Static_assert(EXPARS_OC_TAGS_Ways >= 1 && EXPARS_OC_TAGS_Lines % EXPARS_OC_TAGS_Ways == 0,
               "expars_oc_tags: Ways must divide Lines");
_Static_assert(EXPARS_OC_TAGS_WW <= 16 && EXPARS_OC_TAGS_RW <= 16 && EXPARS_OC_TAGS_VW <= 32,
               "expars_oc_tags: tag fields at most 16 bits, versions at most 32");
#endif

enum hd_expars_oc_op {
    HD_EXPARS_OC_PEEK, HD_EXPARS_OC_READ, HD_EXPARS_OC_WRITE, HD_EXPARS_OC_PUT,
    HD_EXPARS_OC_PIN, HD_EXPARS_OC_UNPIN, HD_EXPARS_OC_STEAL, HD_EXPARS_OC_DROP
};

struct hd_expars_oc_line {
    bool valid, dirty;
    bool pinned;     /* held for its warp's bundle (the register prefetcher, expars_rp.c) */
    uint16_t warp;   /* warp slot */
    uint16_t reg;
    uint32_t ver;    /* the version of the register the line holds */
    uint8_t age;     /* LRU rank in its set: 0 = most recently used */
};

/* The tag array at a run-time geometry (the model's [expars] oc_lines / oc_banks / oc_ways; the
 * block's configs/rtl/expars_oc_tags.ini). */
struct hd_expars_oc_tags {
    uint32_t nlines, nbanks, ways, nsets;
    struct hd_expars_oc_line line[HD_EXPARS_OC_MAX_LINES];
};

/* What one operation answers (the block's outputs). */
struct hd_expars_oc_res {
    bool hit;
    uint32_t line, bank, ver;
    struct hd_expars_oc_line vic; /* vic.valid: a line is (would be) evicted */
    uint32_t n;
};

static inline uint32_t hd_expars_oc_tags_set(const struct hd_expars_oc_tags *t, uint32_t reg)
{
    return reg % t->nsets;
}
static inline uint32_t hd_expars_oc_tags_bank(const struct hd_expars_oc_tags *t, uint32_t reg)
{
    return reg % t->nbanks;
}

/* Empty lines; ages: a set's lower lines older (a fresh set fills from its first line). */
void hd_expars_oc_tags_init(struct hd_expars_oc_tags *t, uint32_t nlines, uint32_t nbanks,
                            uint32_t ways);
/* Line i becomes the most recently used of its set. */
void hd_expars_oc_tags_touch(struct hd_expars_oc_tags *t, uint32_t i);
/* Apply one operation (enum hd_expars_oc_op) and say what it answers. */
void hd_expars_oc_tags_apply(struct hd_expars_oc_tags *t, unsigned op, uint32_t warp,
                             uint32_t reg, uint32_t ver, bool dirty, struct hd_expars_oc_res *r);

extern const struct hd_block_desc hd_expars_oc_tags_block;

struct hd_expars_oc_tags_state {
    struct hd_expars_oc_tags t;
    struct hd_expars_oc_tags_out q;
    uint64_t cycle;
};

void hd_expars_oc_tags_ref_reset(struct hd_expars_oc_tags_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_expars_oc_tags_ref_step(struct hd_expars_oc_tags_state *s,
                                const struct hd_expars_oc_tags_in *in,
                                struct hd_expars_oc_tags_out *out);
bool hd_expars_oc_tags_ref_idle(const struct hd_expars_oc_tags_state *s,
                                const struct hd_expars_oc_tags_in *in);

#endif
