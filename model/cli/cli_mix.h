/* SPDX-License-Identifier: MIT
 * cli_mix.h - multi-kernel mixes in the `heddle` command: the mixes file (workloads/mixes.ini,
 * embedded at build time) and the sub-commands `heddle run --mix NAME`, `heddle list --mixes`
 * and `heddle list --variants`, entered from cli_run.c / cli_list.c.
 */
#ifndef HD_CLI_MIX_H
#define HD_CLI_MIX_H

#include <stdbool.h>
#include <stddef.h>

#define HD_CLI_MIX_MAX 4 /* workloads per mix */

struct hd_cli_mix {
    char name[64];
    char workloads[HD_CLI_MIX_MAX][64];
    unsigned nworkloads;
    char kind[64];
    char why[320];
    char repeat[80];   /* optional: the workload relaunched while the others run ("": none) */
    unsigned repeat_line;
    unsigned line; /* of the section header */
    char hint[160];    /* optional: "W=N W=N ...": launch hints per workload label ("": none) */
    unsigned hint_line;
};

struct hd_cli_mixes {
    struct hd_cli_mix *mixes;
    unsigned n;
    char source[256]; /* "workloads/mixes.ini" (embedded) or the file read */
};

/* Parse the mixes file `path`, or the embedded workloads/mixes.ini when path is NULL. Every
 * workload must be registered. Returns 0, or -1 with "file:line: message" in err. */
int hd_cli_mixes_load(const char *path, struct hd_cli_mixes *out, char *err, size_t errlen);
const struct hd_cli_mix *hd_cli_mixes_find(const struct hd_cli_mixes *m, const char *name);
void hd_cli_mixes_free(struct hd_cli_mixes *m);

/* Does the `run` command line ask for a mix (--mix)? */
bool hd_cli_mix_requested(int argc, char **argv);
/* `heddle run --mix NAME ...` (argv[0] is "run"); returns the exit code. */
int hd_cli_run_mix(int argc, char **argv);
/* `heddle cosim --mix NAME [--arrive SPEC]... --in-loop`: mix `mix` of the embedded mixes file
 * on configuration cfg (a struct hd_cli_config) at size `size` (as --size takes it: small,
 * medium, large, paper, waves or waves3), with block
 * factory hw; prints the mix's summary; *cycles and *secs of the run. Returns the exit code
 * (HD_CLI_OK only if every workload verified). */
struct hd_hw_factory;
struct hd_cli_config;
int hd_cli_mix_run_hw(const char *mix, const char *const *arrive, unsigned narrive,
                      const struct hd_cli_config *cfg, const char *size,
                      const struct hd_hw_factory *hw,
                      unsigned long long *cycles, double *secs);
/* `heddle list --mixes [--mixes-file FILE]`; returns the exit code. */
int hd_cli_list_mixes(int argc, char **argv);
/* `heddle list --variants`: the resource-specification variants. */
int hd_cli_list_variants(int argc, char **argv);
/* `heddle list --classes` (cli_classes.c): the measured kernel classes of workloads/classes.ini. */
int hd_cli_list_classes(int argc, char **argv);

#endif
