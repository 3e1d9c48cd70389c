/* SPDX-License-Identifier: MIT
 * cli_gpu.c - effective configuration (defaults + --config + --set) and GPU creation for the
 * `heddle` commands; see cli_gpu.h for why overrides travel through a temporary file. The
 * effective configuration is checked by hd_rt_config_check, the same function hd_gpu_create
 * uses, so `heddle config` accepts exactly what a run accepts.
 */
#include "cli_gpu.h"

#include "cli_out.h"

#include "cli_util.h"
#include "rt_config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hd_cli_config_option(const char *cmd, int argc, char **argv, int *i, struct hd_cli_config *c)
{
    const char *v;
    int r = hd_cli_option(cmd, argc, argv, i, "--config", &v);
    if (r > 0)
        c->path = v;
    if (r != 0)
        return r;
    r = hd_cli_option(cmd, argc, argv, i, "--set", &v);
    if (r > 0)
        c->sets[c->nsets++] = v;
    if (r != 0)
        return r;
    static const char *const limits[] = {"--max-cycles", "--max-instructions"};
    for (int k = 0; k < 2 && r == 0; k++) {
        r = hd_cli_option(cmd, argc, argv, i, limits[k], &v);
        uint64_t n;
        if (r > 0 && (hd_config_parse_uint(v, &n) != 0 || n == 0)) {
            hd_cli_usage(cmd, "%s wants a positive count, not '%s'", limits[k], v);
            return -1;
        }
        if (r > 0)
            *(k == 0 ? &c->max_cycles : &c->max_instrs) = v;
    }
    return r;
}

/* The configuration goes through a temporary file when anything overrides the file. */
static bool overridden(const struct hd_cli_config *c)
{
    return c->nsets > 0 || c->max_cycles || c->max_instrs;
}

/* The line of `path` (an INI file) that sets `key` in section `sec` (any section when sec is
 * ""), or 0. Lines are "key = value"; sections "[name]". */
static unsigned key_line(const char *path, const char *sec, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1100], cur[64] = "";
    unsigned n = 0, found = 0;
    size_t kl = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        n++;
        const char *p = line + strspn(line, " \t");
        if (*p == '[') {
            size_t l = strcspn(p + 1, "]");
            snprintf(cur, sizeof cur, "%.*s", (int)(l < sizeof cur ? l : sizeof cur - 1), p + 1);
        } else if (strncmp(p, key, kl) == 0 && strchr(" \t=", p[kl]) &&
                   (!sec[0] || !strcmp(sec, cur))) {
            found = n;
        }
    }
    fclose(f);
    return found;
}

/* "PATH: key 'K' [in [S]]: ..." for a file of ours -> "PATH:LINE: key ...", when no --set
 * touched the key (a cross-key rule names one key; its line is where the user looks). */
static void locate_key(const struct hd_cli_config *c, char *err, size_t errlen)
{
    size_t pl = c->path ? strlen(c->path) : 0;
    if (!c->path || c->nsets || strncmp(err, c->path, pl) != 0 || strncmp(err + pl, ": key '", 7))
        return;
    char key[64], sec[64] = "";
    const char *k = err + pl + 7, *q = strchr(k, '\'');
    if (!q || (size_t)(q - k) >= sizeof key)
        return;
    snprintf(key, sizeof key, "%.*s", (int)(q - k), k);
    if (strncmp(q, "' in [", 6) == 0) {
        const char *e = strchr(q + 6, ']');
        if (e && (size_t)(e - q - 6) < sizeof sec)
            snprintf(sec, sizeof sec, "%.*s", (int)(e - q - 6), q + 6);
    }
    unsigned line = key_line(c->path, sec, key);
    if (!line)
        return;
    size_t tl = strlen(err + pl);
    char *tail = malloc(tl + 1);
    if (!tail)
        return;
    memcpy(tail, err + pl, tl + 1);
    snprintf(err, errlen, "%.*s:%u%s", (int)pl, c->path, line, tail);
    free(tail);
}

int hd_cli_config_resolve(const char *cmd, const struct hd_cli_config *c, struct hd_config *out)
{
    char err[512];
    if (c->path) {
        char warn[2400];
        if (hd_config_load_ex(c->path, out, warn, sizeof warn, err, sizeof err) != 0)
            return hd_cli_fail(cmd, "%s", err);
        if (warn[0]) /* a GPGPU-Sim file with options we do not model: one warning */
            fprintf(stderr, "heddle %s: %s\n", cmd, warn);
    } else {
        hd_config_defaults(out);
    }
    for (unsigned k = 0; k < c->nsets; k++) {
        const char *s = c->sets[k], *eq = strchr(s, '=');
        char key[128];
        if (!eq || eq == s || (size_t)(eq - s) >= sizeof key)
            return hd_cli_usage(cmd, "--set wants SECTION.KEY=VALUE, not '%s'", s);
        memcpy(key, s, (size_t)(eq - s));
        key[eq - s] = '\0';
        if (hd_config_set(out, key, eq + 1, err, sizeof err) != 0)
            return hd_cli_usage(cmd, "--set %s: %s", s, err);
    }
    if (c->max_cycles && hd_config_set(out, "timing.max_cycles", c->max_cycles, err, sizeof err))
        return hd_cli_usage(cmd, "--max-cycles %s: %s", c->max_cycles, err);
    if (c->max_instrs &&
        hd_config_set(out, "timing.max_instructions", c->max_instrs, err, sizeof err))
        return hd_cli_usage(cmd, "--max-instructions %s: %s", c->max_instrs, err);
    char what[256];
    hd_cli_config_describe(c, what, sizeof what);
    if (hd_rt_config_check(out, what, err, sizeof err) != 0) { /* exactly as a run checks */
        locate_key(c, err, sizeof err);
        hd_cli_fail(cmd, "%s", err);
        /* a rule across keys broken by the command line (--set, --max-*) exits 2 as a value
         * out of its range there does; in a file alone, 1 as any other bad file (item 10) */
        return c->nsets || c->max_cycles || c->max_instrs ? HD_CLI_USAGE : HD_CLI_FAIL;
    }
    if (out->context_oracle_profile.s[0] && c->nouts) { /* a file the run reads */
        struct hd_cli_path p[9];
        unsigned n = 0;
        for (; n < c->nouts; n++)
            p[n] = (struct hd_cli_path){c->out_what[n], c->out_path[n], true};
        p[n++] = (struct hd_cli_path){"[context] oracle_profile", out->context_oracle_profile.s,
                                      false};
        if (hd_cli_paths_check(cmd, p, n) != HD_CLI_OK)
            return HD_CLI_USAGE;
    }
    return HD_CLI_OK;
}

void hd_cli_config_outputs(struct hd_cli_config *c, const struct hd_cli_path *paths, unsigned n)
{
    c->nouts = 0;
    for (unsigned i = 0; i < n && c->nouts < sizeof c->out_path / sizeof c->out_path[0]; i++)
        if (paths[i].output) {
            c->out_what[c->nouts] = paths[i].what;
            c->out_path[c->nouts++] = paths[i].path;
        }
}

struct hd_gpu *hd_cli_gpu_create(const char *cmd, const struct hd_cli_config *c,
                                 const struct hd_config *cfg)
{
    char err[512] = "";
    if (!overridden(c)) {
        struct hd_gpu *gpu = hd_gpu_create(c->path, err, sizeof err);
        if (!gpu)
            hd_cli_fail(cmd, "%s", err[0] ? err : "cannot create the GPU");
        return gpu;
    }
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/heddle-config-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        hd_cli_fail(cmd, "cannot write a temporary configuration in %s", path);
        return NULL;
    }
    hd_config_write(cfg, f, "");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        unlink(path);
        hd_cli_fail(cmd, "cannot write the temporary configuration %s", path);
        return NULL;
    }
    struct hd_gpu *gpu = hd_gpu_create(path, err, sizeof err);
    unlink(path);
    if (!gpu) {
        /* name the configuration as the user gave it, not the temporary file */
        const size_t n = strlen(path);
        char what[256];
        hd_cli_config_describe(c, what, sizeof what);
        if (strncmp(err, path, n) == 0)
            hd_cli_fail(cmd, "%s%s", what, err + n);
        else
            hd_cli_fail(cmd, "%s", err[0] ? err : "cannot create the GPU");
    }
    return gpu;
}

void hd_cli_config_describe(const struct hd_cli_config *c, char *buf, size_t len)
{
    const char *base = c->path ? c->path : "fermi-gtx480 defaults";
    if (c->nsets == 0)
        snprintf(buf, len, "%s", base);
    else if (c->nsets == 1)
        snprintf(buf, len, "%s, --set %s", base, c->sets[0]);
    else
        snprintf(buf, len, "%s + %u --set", base, c->nsets);
    size_t n = strlen(buf);
    if (c->max_cycles && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", --max-cycles %s", c->max_cycles);
    if (c->max_instrs && n < len)
        snprintf(buf + n, len - n, ", --max-instructions %s", c->max_instrs);
}

int hd_cli_gpu_write(const char *cmd, const char *opt, const char *path, const char *what,
                     const struct hd_gpu *gpu, int (*write)(const struct hd_gpu *, FILE *))
{
    struct hd_cli_out out;
    int s = hd_cli_out_open(&out, cmd, opt, path);
    if (s != HD_CLI_OK)
        return s;
    if (write(gpu, out.f) != HD_OK) {
        hd_cli_out_discard(&out);
        return hd_cli_fail(cmd, "%s %s: cannot write the %s", opt, path, what);
    }
    return hd_cli_out_commit(&out);
}
