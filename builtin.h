/*
 * builtin.h: the subcommands.  Each cmd_* lives in the module that owns
 * it (parse/cmd-convert.c, replay/cmd-stats.c, ...), parses its own
 * options, and returns an exit status; errors go up as a struct sr_diag
 * that schedreplay.c reports once.
 */
#ifndef SR_BUILTIN_H
#define SR_BUILTIN_H

#include "lib/diag.h"

typedef int (*sr_cmd_fn)(int argc, char **argv, struct sr_diag *d);

int cmd_policies(int argc, char **argv, struct sr_diag *d);
int cmd_stats(int argc, char **argv, struct sr_diag *d);
int cmd_convert(int argc, char **argv, struct sr_diag *d);
int cmd_replay(int argc, char **argv, struct sr_diag *d);
int cmd_diff(int argc, char **argv, struct sr_diag *d);
int cmd_plot(int argc, char **argv, struct sr_diag *d);
int cmd_report(int argc, char **argv, struct sr_diag *d);

#endif
