/* SPDX-License-Identifier: MIT
 * config_print.c - the configuration's text forms: one value, the INI echo, --help-config and
 * the Markdown reference (docs/config.md).
 *
 * All four walk the descriptor table, so they can never disagree with params.def. The INI echo
 * is exact: hd_config_parse() reads it back to an equal configuration (floats are printed with
 * the fewest digits that round-trip).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {==== Values ==== */
static void format_f64(double d, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", d);
    if (strtod(buf, NULL) != d)
        snprintf(buf, len, "%.17g", d);
    if (!strpbrk(buf, ".eEn") && strlen(buf) + 2 < len)
        strcat(buf, ".0"); /* keep floats visibly floats */
}

void hd_config_format_value(const struct hd_config *cfg, const struct hd_cfg_param *p, char *buf,
                            size_t len)
{
    const char *field = (const char *)cfg + p->offset;
    switch (p->type) {
    case HD_CFG_U32: {
        uint32_t v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%" PRIu32, v);
        return;
    }
    case HD_CFG_U64: {
        uint64_t v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%" PRIu64, v);
        return;
    }
    case HD_CFG_F64: {
        double v;
        memcpy(&v, field, sizeof v);
        format_f64(v, buf, len);
        return;
    }
    case HD_CFG_BOOL: {
        bool v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%s", v ? "true" : "false");
        return;
    }
    case HD_CFG_STR: {
        struct hd_cfg_str v;
        memcpy(&v, field, sizeof v);
        v.s[HD_CFG_STR_MAX - 1] = '\0';
        snprintf(buf, len, "\"%s\"", v.s);
        return;
    }
    case HD_CFG_ENUM: {
        int v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%s", hd_config_enum_name(p, v));
        return;
    }
    }
    snprintf(buf, len, "?");
}

static const char *type_name(const struct hd_cfg_param *p)
{
    switch (p->type) {
    case HD_CFG_U32: return "u32";
    case HD_CFG_U64: return "u64";
    case HD_CFG_F64: return "float";
    case HD_CFG_BOOL: return "bool";
    case HD_CFG_STR: return "string";
    case HD_CFG_ENUM: return "enum";
    }
    return "?";
}

/* "1 .. 1024", "the values a, b", or "" */
static void format_range(const struct hd_cfg_param *p, char *buf, size_t len, bool markdown)
{
    buf[0] = '\0';
    if (p->type == HD_CFG_U64 && p->max >= 18446744073709551615.0) {
        /* 2^64 - 1 is 2^64 as a double: print the integer the parser accepts (issue 34) */
        snprintf(buf, len, "%.0f .. %" PRIu64, p->min, UINT64_MAX);
    } else if (p->type == HD_CFG_U32 || p->type == HD_CFG_U64) {
        snprintf(buf, len, "%.0f .. %.0f", p->min, p->max);
    } else if (p->type == HD_CFG_F64) {
        snprintf(buf, len, "%g .. %g", p->min, p->max);
    } else if (p->type == HD_CFG_ENUM) {
        size_t used = 0;
        for (unsigned i = 0; i < p->nvalues; i++) {
            int n = snprintf(buf + used, len - used, markdown ? "%s`%s`" : "%s%s",
                             i ? (markdown ? ", " : " | ") : "", p->values[i].name);
            if (n < 0 || (size_t)n >= len - used)
                return;
            used += (size_t)n;
        }
    }
}
/* }==== */

/* {==== INI echo ==== */
void hd_config_write(const struct hd_config *cfg, FILE *out, const char *prefix)
{
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    for (unsigned i = 0; i < n; i++) {
        if (i == 0 || strcmp(p[i].section, p[i - 1].section) != 0) {
            if (i > 0) { /* blank separator: the prefix without its trailing spaces */
                size_t plen = strlen(prefix);
                while (plen > 0 && prefix[plen - 1] == ' ')
                    plen--;
                fprintf(out, "%.*s\n", (int)plen, prefix);
            }
            fprintf(out, "%s[%s]\n", prefix, p[i].section);
        }
        char v[128];
        hd_config_format_value(cfg, &p[i], v, sizeof v);
        fprintf(out, "%s%s = %s\n", prefix, p[i].key, v);
    }
}
/* }==== */

/* {==== --help-config ==== */
void hd_config_help(FILE *out)
{
    struct hd_config def;
    hd_config_defaults(&def);
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    fprintf(out, "Configuration parameters. A file is INI: '[section]' lines, then 'key = value'\n"
                 "lines ('#' or ';' start comments). Keys a file omits keep the defaults below\n"
                 "(the fermi-gtx480 baseline). Unknown keys and out-of-range values are errors.\n");
    for (unsigned i = 0; i < n; i++) {
        if (i == 0 || strcmp(p[i].section, p[i - 1].section) != 0)
            fprintf(out, "\n[%s]\n", p[i].section);
        char v[128], range[256];
        hd_config_format_value(&def, &p[i], v, sizeof v);
        format_range(&p[i], range, sizeof range, false);
        fprintf(out, "  %-20s = %-14s %s%s%s%s\n", p[i].key, v, type_name(&p[i]),
                range[0] ? " (" : "", range, range[0] ? ")" : "");
        fprintf(out, "      %s\n", p[i].doc);
        for (unsigned k = 0; k < p[i].nvalues; k++)
            fprintf(out, "        %-12s %s\n", p[i].values[k].name, p[i].values[k].doc);
    }
}
/* }==== */

/* {==== docs/config.md ==== */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else
            fputc(*s, out);
    }
}

void hd_config_doc_markdown(FILE *out)
{
    struct hd_config def;
    hd_config_defaults(&def);
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    fputs("# Configuration reference\n\n"
          "<!-- Generated from model/config/params.def by `heddle config-doc > docs/config.md`;\n"
          "     do not edit by hand (a test checks that this file is current). -->\n\n"
          "A Heddle GPU configuration is an INI file: `[section]` lines, then `key = value` lines;\n"
          "`#` or `;` starts a comment. A file sets only the keys it names and every other key\n"
          "keeps the default below (the Fermi GTX480 baseline); the named configurations in\n"
          "`configs/` list every key anyway. A key may also be written `section.key = value`.\n"
          "Integers are decimal or `0x` hex and may end in `K`, `M` or `G` (binary multiples,\n"
          "optionally followed by `iB`); booleans are `true`/`false`; strings may be quoted.\n"
          "An unknown section or key, a repeated key, or a value of the wrong type or out of its\n"
          "range is an error naming the file and line: `file:line: key 'X': message`.\n\n"
          "Use a file with `heddle run WORKLOAD --config FILE`; `heddle --help-config` prints\n"
          "this table as text, and every statistics report starts with the configuration used.\n",
          out);
    for (unsigned i = 0; i < n; i++) {
        if (i == 0 || strcmp(p[i].section, p[i - 1].section) != 0)
            fprintf(out, "\n## [%s]\n\n| key | type | default | range | meaning |\n"
                         "|---|---|---|---|---|\n", p[i].section);
        char v[128], range[256];
        hd_config_format_value(&def, &p[i], v, sizeof v);
        format_range(&p[i], range, sizeof range, true);
        fprintf(out, "| `%s` | %s | `%s` | %s | ", p[i].key, type_name(&p[i]), v, range);
        md_text(out, p[i].doc);
        for (unsigned k = 0; k < p[i].nvalues; k++) {
            fprintf(out, "%s`%s`: ", k ? "; " : " ", p[i].values[k].name);
            md_text(out, p[i].values[k].doc);
        }
        fputs(" |\n", out);
    }
    hd_config_gpgpusim_doc(out);
}
/* }==== */
