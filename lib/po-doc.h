/*
 * po-doc: a command's option table (lib/parse-options.h) rendered for the
 * man page and for shell completion, so that neither can drift from what
 * po_parse accepts.  po_parse calls them for the hidden forms
 *
 *	schedreplay CMD --help=man        the command's man(7) section
 *	schedreplay CMD --help=complete   its options, one per line
 *
 * which `schedreplay help --man` and `schedreplay help --complete CMD`
 * (builtin/help.c) put together.
 */
#ifndef SR_PO_DOC_H
#define SR_PO_DOC_H

#include <stdio.h>

#include "lib/parse-options.h"

/*
 * The command's section of a man(7) page: .SH with its name in capitals,
 * the synopsis, the about paragraph, a .SS per option group with a .TP
 * per option (the -h row too), and the footer.  Text is escaped for roff:
 * backslashes, a leading '.' or '\'', and every '-' as \- (options stay
 * copyable).
 */
void po_man(const struct po_cmd *c, FILE *f);

/* Text for roff: escaped as above; '\n' in it is a space. */
void po_man_text(FILE *f, const char *text);

/*
 * Completion words, one line per option form and one for the operands,
 * fields separated by tabs:
 *
 *	--tsv     flag    -          header line and one row per task, ...
 *	-o        arg     FILE       write to FILE ...
 *	--policy  list    P          a policy ...        (repeatable)
 *	--format  choice  png svg pdf    image format ...
 *	operand   arg     TRACE      -       (when the command takes one)
 *
 * The description is the help text's first 70 columns, on one line.
 */
void po_complete(const struct po_cmd *c, FILE *f);

#endif
