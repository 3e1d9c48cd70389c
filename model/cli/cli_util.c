/* SPDX-License-Identifier: MIT
 * cli_util.c - option scanning, value parsing, messages, the Ctrl-C flag and formatting shared by
 * the `heddle` commands.
 *
 * The one piece of mutable global state in the tool is the SIGINT/SIGTERM flag below: a signal handler
 * can only reach a static object (exception to rule C4, for that reason). The runtime polls it
 * through hd_gpu_set_interrupt().
 */
#include "config.h"
#include "cli_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* {==== Messages ==== */
static void vmessage(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "heddle%s%s: ", cmd && cmd[0] ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int hd_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'heddle%s%s --help'.\n", cmd && cmd[0] ? " " : "", cmd ? cmd : "");
    return HD_CLI_USAGE;
}

int hd_cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    return HD_CLI_FAIL;
}
/* }==== */

/* {==== Options and values ==== */
bool hd_cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int hd_cli_option(const char *cmd, int argc, char **argv, int *i, const char *name,
                  const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        hd_cli_usage(cmd, "option '%s' needs a value", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int hd_cli_parse_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (hd_config_parse_uint(s, &v) != 0 || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int hd_cli_parse_dim3(const char *s, struct hd_dim3 *out)
{
    uint32_t d[3] = {1, 1, 1};
    char buf[64];
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    memcpy(buf, s, strlen(s) + 1);
    char *p = buf;
    for (int k = 0; k < 3; k++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (hd_cli_parse_u32(p, &d[k]) != 0 || d[k] == 0)
            return -1;
        if (!comma)
            break;
        if (k == 2)
            return -1; /* a fourth component */
        p = comma + 1;
    }
    out->x = d[0];
    out->y = d[1];
    out->z = d[2];
    return 0;
}
/* }==== */

/* {==== Ctrl-C and SIGTERM ==== */
static volatile sig_atomic_t interrupted; /* the only mutable global: see the file header */

static void on_signal(int sig)
{
    interrupted = sig; /* nonzero: SIGINT or SIGTERM */
    signal(sig, SIG_DFL); /* a second signal ends the process */
}

volatile sig_atomic_t *hd_cli_interrupt_install(void)
{
    interrupted = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &interrupted;
}

int hd_cli_interrupt_exit(int rc)
{
    if (rc == HD_CLI_INTERRUPTED && interrupted == SIGTERM)
        return 128 + SIGTERM;
    return rc;
}
/* }==== */

/* {==== Time and numbers ==== */
double hd_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void hd_cli_group(uint64_t v, char *buf, size_t len)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

void hd_cli_rate(double v, char *buf, size_t len)
{
    if (v >= 1e9)
        snprintf(buf, len, "%.2f G", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.2f M", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, len, "%.2f K", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}
/* }==== */
