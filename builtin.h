/*
 * builtin.h: the subcommands.  Each cmd_* lives in builtin/NAME.c, declares
 * its options in one table (lib/parse-options.h), and returns an exit
 * status; errors go up as a struct sr_diag that schedreplay.c reports
 * once.  Only builtin/ and schedreplay.c include this header.
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
