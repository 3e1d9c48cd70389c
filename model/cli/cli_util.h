/* SPDX-License-Identifier: MIT
 * cli_util.h - shared pieces of the `heddle` commands: option scanning, value parsing, usage
 * errors, the Ctrl-C flag, wall-clock time and number formatting.
 *
 * Conventions every command follows: options are `--name value` or `--name=value`; `-h` and
 * `--help` print the command's help and exit 0; an unknown option, a missing or malformed value
 * prints "heddle CMD: message" plus a hint and exits HD_CLI_USAGE. Nothing here exits the
 * process: helpers return status codes that main() returns.
 */
#ifndef HD_CLI_UTIL_H
#define HD_CLI_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "heddle.h"

/* Exit codes of the heddle command. */
enum hd_cli_exit {
    HD_CLI_OK = 0,          /* success (for run/launch: verified / completed) */
    HD_CLI_FAIL = 1,        /* the run failed: runtime error, wrong result, bad input file */
    HD_CLI_USAGE = 2,       /* bad command line */
    HD_CLI_INTERRUPTED = 130 /* Ctrl-C (128 + SIGINT), after printing what was gathered;
                              * 143 for SIGTERM (hd_cli_interrupt_exit) */
};

#if defined(__GNUC__)
#define HD_CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HD_CLI_PRINTF(a, b)
#endif

/* Print "heddle CMD: message" and "Try 'heddle CMD --help'." to stderr; returns HD_CLI_USAGE. */
int hd_cli_usage(const char *cmd, const char *fmt, ...) HD_CLI_PRINTF(2, 3);
/* Print "heddle CMD: message" to stderr; returns HD_CLI_FAIL. */
int hd_cli_fail(const char *cmd, const char *fmt, ...) HD_CLI_PRINTF(2, 3);

bool hd_cli_is_help(const char *arg);

/* If argv[*i] is option `name` ("--grid"), store its value (from "--grid=V" or the next
 * argument, advancing *i) and return 1; return 0 if it is another argument; return -1 (after a
 * usage message) if the value is missing. */
int hd_cli_option(const char *cmd, int argc, char **argv, int *i, const char *name,
                  const char **value);

/* Value parsers: return 0, or -1 (no message; the caller names the option). */
int hd_cli_parse_u32(const char *s, uint32_t *out);
int hd_cli_parse_dim3(const char *s, struct hd_dim3 *out); /* "X", "X,Y" or "X,Y,Z", each >= 1 */

/* Ctrl-C and SIGTERM: installs a handler for both that sets the returned flag (to the signal's
 * number) and restores the default action, so a second signal ends the process at once. The
 * run stops, writes its statistics and returns HD_CLI_INTERRUPTED. */
volatile sig_atomic_t *hd_cli_interrupt_install(void);
/* The exit status for `rc`: 143 (128 + SIGTERM) in place of HD_CLI_INTERRUPTED when SIGTERM
 * stopped the run, else rc. */
int hd_cli_interrupt_exit(int rc);

double hd_cli_now(void); /* monotonic seconds */
/* "12,345,678" */
void hd_cli_group(uint64_t v, char *buf, size_t len);
/* "12.3 M" style rate (value per second) */
void hd_cli_rate(double per_second, char *buf, size_t len);

#endif
