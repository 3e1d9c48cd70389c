/* SPDX-License-Identifier: MIT
 * cosim_family.h - the block families of `heddle cosim --blocks FAMILY` (issue 23 item 3): which
 * blocks a family co-simulates, whose mechanism they are, and what the family needs from the run
 * (--in-loop, settings, the context codec). The table is generated at configure time from the
 * [block] sections of configs/rtl/<b>.ini (cosim/block_meta.cmake), so a new block's folder is
 * the only list it is in; model/cli/cli_cosim.c applies it.
 */
#ifndef HD_COSIM_FAMILY_H
#define HD_COSIM_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

struct hd_cosim_family {
    const char *name;     /* --blocks NAME */
    const char *blocks;   /* its blocks, comma-separated (configs/rtl/<b>.ini family = NAME) */
    const char *owner;    /* the mechanism (owner = ...: lin, shieh, ...) */
    bool loop_only;       /* runs only with --in-loop (family_loop = 1) */
    bool codec;           /* in the loop, saved registers stream through the context codec */
    bool must_step;       /* a run that stepped none of its RTL fails (no vacuous pass) */
    const char *requires; /* "SEC.KEY=V,...": added; another value set by the user is an error */
    const char *defaults; /* "SEC.KEY=V,...": added unless the user names the key */
};

extern const struct hd_cosim_family hd_cosim_families[]; /* generated */
extern const unsigned hd_cosim_nfamilies;

/* The family named NAME, or NULL. */
const struct hd_cosim_family *hd_cosim_family_find(const char *name);
/* The names, ", "-separated, into buf (those that run outside the loop only, with observer_only):
 * for usage messages. Returns buf. */
const char *hd_cosim_family_names(char *buf, size_t len, bool observer_only);
/* The number of settings in a "SEC.KEY=V,..." list. */
unsigned hd_cosim_family_nsettings(const char *list);
/* Copy the n-th setting of LIST (0-based) into buf; its key's length (up to '=') into *keylen.
 * Returns buf, or NULL when there is no such setting or it does not fit. */
const char *hd_cosim_family_setting(const char *list, unsigned n, char *buf, size_t len,
                                    size_t *keylen);

#endif
