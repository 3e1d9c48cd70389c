/* SPDX-License-Identifier: MIT
 * cli_gpu.h - the effective GPU configuration of a command (defaults, then --config FILE, then
 * each --set SECTION.KEY=VALUE) and the simulated GPU created from it.
 *
 * Design: the runtime creates a GPU from a configuration *file* (heddle.h). Without --set the
 * file is handed over as is, so its errors keep their file:line. With --set, the CLI checks the
 * file and every override itself, writes the effective configuration (the exact INI echo) to a
 * private temporary file, creates the GPU from it and removes the file at once.
 */
#ifndef HD_CLI_GPU_H
#define HD_CLI_GPU_H

#include "config.h"
#include "heddle.h"

#include <stdio.h>

struct hd_cli_config {
    const char *path;   /* --config FILE, or NULL for the built-in defaults */
    const char **sets;  /* --set values "SECTION.KEY=VALUE", in command-line order */
    unsigned nsets;
    const char *max_cycles, *max_instrs; /* --max-cycles N, --max-instructions N (after --set) */
    /* the command's outputs (hd_cli_config_outputs): a file named by a configuration value that
     * the run reads ([context] oracle_profile) must not be one of them */
    const char *out_what[8], *out_path[8];
    unsigned nouts;
};

struct hd_cli_path;
/* Note the outputs among paths[0..n) (argv strings: they outlive the call) so that
 * hd_cli_config_resolve refuses a configuration that reads one of them. */
void hd_cli_config_outputs(struct hd_cli_config *c, const struct hd_cli_path *paths, unsigned n);

/* If argv[*i] is --config, --set, --max-cycles or --max-instructions, record it (advancing *i
 * past its value) and return 1; 0 if it is another argument; -1 after a usage message. `sets`
 * must have room for argc entries. The two limits are [timing] max_cycles / max_instructions. */
int hd_cli_config_option(const char *cmd, int argc, char **argv, int *i, struct hd_cli_config *c);
/* Compute the effective configuration. Returns HD_CLI_OK or an exit code (message printed). */
int hd_cli_config_resolve(const char *cmd, const struct hd_cli_config *c, struct hd_config *out);
/* Create the GPU for `c` (whose resolved configuration is `cfg`). NULL after a message. */
struct hd_gpu *hd_cli_gpu_create(const char *cmd, const struct hd_cli_config *c,
                                 const struct hd_config *cfg);
/* "configs/x.ini", "configs/x.ini + 2 --set", "built-in defaults", ... for summaries */
void hd_cli_config_describe(const struct hd_cli_config *c, char *buf, size_t len);

/* Write one of the GPU's reports (e.g. hd_gpu_write_stats_csv) to `path`, option `opt` of
 * command `cmd`, through a temporary file (cli_out.h). Returns HD_CLI_OK, or HD_CLI_FAIL after
 * "heddle CMD: OPT PATH: cannot write the WHAT" (or the file's own error) on stderr. */
int hd_cli_gpu_write(const char *cmd, const char *opt, const char *path, const char *what,
                     const struct hd_gpu *gpu, int (*write)(const struct hd_gpu *, FILE *));

#endif
