/* SPDX-License-Identifier: MIT
 * config_ini.c - the INI reader for configuration files.
 *
 * Grammar, one construct per line: blank; comment ('#' or ';' to the end of the line, also after
 * a value); "[section]"; "key = value" inside a section; or "section.key = value" anywhere. Every
 * section and key must exist in params.def and each key may be set once per file. Errors name
 * the file and line: "file:line: key 'X': message" (or "section [X]" for sections). The reader
 * works on a length-bounded buffer (no NUL needed) and never allocates per line. hd_config_load
 * also accepts a GPGPU-Sim gpgpusim.config (recognised by its "-option" lines; config_gpgpusim.c).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LINE_MAX_CHARS 1024

static int fail_at(char *err, size_t errlen, const char *name, uint32_t line, const char *fmt,
                   ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int fail_at(char *err, size_t errlen, const char *name, uint32_t line, const char *fmt, ...)
{
    if (!err || !errlen)
        return -1;
    int n = line ? snprintf(err, errlen, "%s:%u: ", name, line) : snprintf(err, errlen, "%s: ", name);
    if (n >= 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Trim [*b, *e) in place. */
static void trim(const char **b, const char **e)
{
    while (*b < *e && is_space(**b))
        (*b)++;
    while (*e > *b && is_space((*e)[-1]))
        (*e)--;
}

static bool known_section(const char *name)
{
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(p[i].section, name) == 0)
            return true;
    return false;
}

static void section_list(char *buf, size_t len)
{
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        if (i > 0 && strcmp(p[i].section, p[i - 1].section) == 0)
            continue;
        int k = snprintf(buf + used, len - used, "%s[%s]", used ? " " : "", p[i].section);
        if (k < 0 || (size_t)k >= len - used)
            return;
        used += (size_t)k;
    }
}

/* End of the meaningful part of a line: the first '#' or ';' outside double quotes. */
static const char *strip_comment(const char *b, const char *e)
{
    bool quoted = false;
    for (const char *p = b; p < e; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (!quoted && (*p == '#' || *p == ';'))
            return p;
    }
    return e;
}

struct ini_state {
    const char *name;
    char section[64];
    uint32_t *seen; /* line where each parameter was set, 0 if not yet */
    char *err;
    size_t errlen;
};

static int copy_span(char *dst, size_t cap, const char *b, const char *e)
{
    size_t n = (size_t)(e - b);
    if (n >= cap)
        return -1;
    memcpy(dst, b, n);
    dst[n] = '\0';
    return 0;
}

static int do_section(struct ini_state *st, uint32_t line, const char *b, const char *e)
{
    if (e[-1] != ']')
        return fail_at(st->err, st->errlen, st->name, line, "expected ']' to close the section");
    b++;
    e--;
    trim(&b, &e);
    char name[64];
    if (b == e || copy_span(name, sizeof name, b, e) != 0)
        return fail_at(st->err, st->errlen, st->name, line, "bad section name");
    if (!known_section(name)) {
        char list[256];
        section_list(list, sizeof list);
        return fail_at(st->err, st->errlen, st->name, line,
                       "section [%s]: unknown section (known: %s)", name, list);
    }
    memcpy(st->section, name, sizeof st->section);
    return 0;
}

static int do_assign(struct hd_config *cfg, struct ini_state *st, uint32_t line, const char *b,
                     const char *e, const char *eq)
{
    const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
    trim(&kb, &ke);
    trim(&vb, &ve);
    char key[128], value[LINE_MAX_CHARS + 1], section[64];
    if (kb == ke || copy_span(key, sizeof key, kb, ke) != 0)
        return fail_at(st->err, st->errlen, st->name, line, "missing key before '='");
    for (const char *p = key; *p; p++)
        if (!is_ident_char(*p) && *p != '.')
            return fail_at(st->err, st->errlen, st->name, line,
                           "key '%s': keys are letters, digits and '_'", key);
    if (vb == ve)
        return fail_at(st->err, st->errlen, st->name, line, "key '%s': missing value", key);
    copy_span(value, sizeof value, vb, ve); /* fits: lines are bounded */

    const char *k = key;
    char *dot = strchr(key, '.');
    if (dot) {
        *dot = '\0';
        if (strlen(key) >= sizeof section || !known_section(key))
            return fail_at(st->err, st->errlen, st->name, line, "section [%s]: unknown section",
                           key);
        memcpy(section, key, strlen(key) + 1);
        k = dot + 1;
    } else {
        if (!st->section[0])
            return fail_at(st->err, st->errlen, st->name, line,
                           "key '%s': outside any [section] (write [section] first, or "
                           "section.key)", key);
        memcpy(section, st->section, sizeof section);
    }
    const struct hd_cfg_param *p = hd_config_find(section, k);
    if (!p)
        return fail_at(st->err, st->errlen, st->name, line,
                       "key '%s': unknown key in section [%s] (see heddle --help-config)", k,
                       section);
    unsigned n;
    const struct hd_cfg_param *all = hd_config_params(&n);
    size_t idx = (size_t)(p - all);
    if (st->seen[idx])
        return fail_at(st->err, st->errlen, st->name, line, "key '%s': set twice (first at line %u)",
                       k, st->seen[idx]);
    st->seen[idx] = line;
    char msg[384];
    if (hd_config_set_param(cfg, p, value, msg, sizeof msg) != 0)
        return fail_at(st->err, st->errlen, st->name, line, "%s", msg);
    return 0;
}

static int do_line(struct hd_config *cfg, struct ini_state *st, uint32_t line, const char *b,
                   const char *e)
{
    if ((size_t)(e - b) > LINE_MAX_CHARS)
        return fail_at(st->err, st->errlen, st->name, line, "line longer than %d characters",
                       LINE_MAX_CHARS);
    for (const char *p = b; p < e; p++)
        if (*p == '\0')
            return fail_at(st->err, st->errlen, st->name, line, "NUL byte in a text file");
    e = strip_comment(b, e);
    trim(&b, &e);
    if (b == e)
        return 0;
    if (*b == '[')
        return do_section(st, line, b, e);
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq)
        return fail_at(st->err, st->errlen, st->name, line,
                       "expected 'key = value' or '[section]'");
    return do_assign(cfg, st, line, b, e, eq);
}

int hd_config_parse(struct hd_config *cfg, const char *text, size_t len, const char *name,
                    char *err, size_t errlen)
{
    unsigned n;
    hd_config_params(&n);
    struct ini_state st = {.name = name ? name : "<config>", .err = err, .errlen = errlen};
    st.seen = calloc(n, sizeof *st.seen);
    if (!st.seen)
        return fail_at(err, errlen, st.name, 0, "out of memory");
    int rc = 0;
    uint32_t line = 1;
    size_t pos = 0;
    while (pos < len && rc == 0) {
        const char *b = text + pos;
        const char *nl = memchr(b, '\n', len - pos);
        const char *e = nl ? nl : text + len;
        rc = do_line(cfg, &st, line, b, e);
        pos = (size_t)(e - text) + (nl ? 1 : 0);
        line++;
    }
    free(st.seen);
    return rc;
}

int hd_config_load(const char *path, struct hd_config *out, char *err, size_t errlen)
{
    return hd_config_load_ex(path, out, NULL, 0, err, errlen);
}

int hd_config_load_ex(const char *path, struct hd_config *out, char *warn, size_t warnlen,
                      char *err, size_t errlen)
{
    if (warn && warnlen)
        warn[0] = '\0';
    hd_config_defaults(out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail_at(err, errlen, path, 0, "cannot read: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return fail_at(err, errlen, path, 0, "is a directory, not a configuration file");
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        if (cap >= ((size_t)16 << 20)) {
            rc = fail_at(err, errlen, path, 0, "file larger than 16 MiB");
            break;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool io_error = ferror(f) != 0;
    int io_errno = errno;
    fclose(f);
    if (!buf)
        return fail_at(err, errlen, path, 0, "out of memory");
    if (rc == 0 && io_error)
        rc = fail_at(err, errlen, path, 0, "cannot read: %s",
                     io_errno ? strerror(io_errno) : "I/O error");
    if (rc == 0 && hd_config_is_gpgpusim(buf, len)) {
        char ignored[2048];
        unsigned nign = 0;
        rc = hd_config_parse_gpgpusim(out, buf, len, path, ignored, sizeof ignored, &nign, err,
                                      errlen);
        if (rc == 0 && nign && warn && warnlen)
            snprintf(warn, warnlen,
                     "%s: warning: %u GPGPU-Sim option%s with no Heddle equivalent ignored: %s",
                     path, nign, nign == 1 ? "" : "s", ignored);
    } else if (rc == 0) {
        rc = hd_config_parse(out, buf, len, path, err, errlen);
    }
    free(buf);
    if (rc == 0) {
        char msg[384];
        if (hd_config_validate(out, msg, sizeof msg) != 0)
            rc = fail_at(err, errlen, path, 0, "%s", msg);
    }
    return rc;
}
