# schedreplay: build, tests, benchmarks, demo.
#
#   make            build ./schedreplay
#   make check      tests: normal build, then ASan+UBSan build, then valgrind
#   make bench      benchmarks (prints figures)
#   make mutate     mutation testing: each mutation of tests/mutations in a
#                   scratch copy, its tests run, the survivors printed
#                   (slow: not part of make check)
#   make demo       the main job on the bundled mixed sample
#   make install    PREFIX=/usr/local DESTDIR=: the binary, the man page
#                   (made from the option tables), bash and zsh completion,
#                   the docs; make uninstall removes them
#
# Sources are found by folder (SRC_DIRS): every .c in lib/ parse/
# sched-model/ replay/ compare/ plots/ builtin/ goes into one static
# library; tests/<folder>/test-*.c are test programs linked against it
# (tests/lib/test-*.c too; the other tests/lib/*.c are their support);
# tests/<folder>/*.sh are shell tests.

CC ?= cc
ifeq ($(origin CC),default)
CC = cc
endif
OPT ?= -O2 -g
SAN ?= 0
BUILD ?= build

PCRE2_CFLAGS := $(shell pkg-config --cflags libpcre2-8 2>/dev/null)
PCRE2_LIBS := $(shell pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
# perf.data and trace.dat: the event formats (libtraceevent), trace.dat's
# sections and pages (libtracecmd)
# sections and pages (libtracecmd), and its zstd sections checked first
TRACE_CFLAGS := $(shell pkg-config --cflags libtraceevent libtracecmd libtracefs libzstd 2>/dev/null)
TRACE_LIBS := $(shell pkg-config --libs libtracecmd libtracefs libtraceevent libzstd 2>/dev/null || \
	echo -ltracecmd -ltracefs -ltraceevent -lzstd)

# gzip inflated by ISA-L's igzip (libisal-dev) when it is there, else zlib
# (parse/stream.c); ISAL=0 builds without it.
ISAL ?= $(shell pkg-config --exists libisal 2>/dev/null && echo 1)
ifeq ($(ISAL),1)
ISAL_CFLAGS := -DSR_HAVE_ISAL $(shell pkg-config --cflags libisal 2>/dev/null)
ISAL_LIBS := $(shell pkg-config --libs libisal 2>/dev/null || echo -lisal)
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -I. $(PCRE2_CFLAGS) $(TRACE_CFLAGS) $(ISAL_CFLAGS) $(WARN)
LIBS := $(PCRE2_LIBS) $(TRACE_LIBS) $(ISAL_LIBS) -lz -lm -pthread

ifeq ($(SAN),1)
BUILD := build-san
OPT := -O1 -g -fno-omit-frame-pointer
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
endif

# make fuzz: clang with libFuzzer, ASan and UBSan, into build-fuzz/.
ifeq ($(FUZZ),1)
override CC := clang
BUILD := build-fuzz
OPT := -O1 -g -fno-omit-frame-pointer
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all
endif

ALL_CFLAGS = $(OPT) $(SANFLAGS) $(BASE_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

SRC_DIRS := lib parse sched-model replay compare plots record builtin
LIB_SRCS := $(sort $(wildcard $(addsuffix /*.c,$(SRC_DIRS))))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libschedreplay.a

TEST_SRCS := $(sort $(wildcard tests/*/test-*.c))
TEST_BINS := $(TEST_SRCS:%.c=$(BUILD)/%)
TEST_SUPPORT := $(filter-out tests/lib/test-%.c,$(sort $(wildcard tests/lib/*.c)))
TEST_SUPPORT_OBJS := $(TEST_SUPPORT:%.c=$(BUILD)/%.o)

# Fuzz targets (tests/fuzz/fuzz-*.c, not ordinary tests): linked with
# tests/fuzz/driver.c they replay the kept inputs in every check-run
# (tests/fuzz/regress.sh); `make fuzz` links them with libFuzzer instead.
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS := $(FUZZ_SRCS:%.c=$(BUILD)/%)
FUZZ_WRAP := -Wl,--wrap=sr_patterns_init -Wl,--wrap=sr_patterns_free
ifeq ($(FUZZ),1)
FUZZ_MAIN := -fsanitize=fuzzer
else
FUZZ_MAIN := tests/fuzz/driver.c
endif
FUZZ_SECONDS ?= 60

BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:%.c=$(BUILD)/%)

# ./schedreplay is the default build's; any other build (SAN=1, BUILD=
# build-clang, ...) keeps its binary in its own directory, so that it
# never replaces the one `make check` and valgrind use.
ifeq ($(BUILD),build)
PROG := schedreplay
else
PROG := $(BUILD)/schedreplay
endif

# The man page is made by the binary from its option tables (`schedreplay
# help --man`), so it cannot drift from what the commands accept.
MAN := $(BUILD)/schedreplay.1

# make install: where things go (GNU conventions; DESTDIR for staging).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
DOCDIR ?= $(DATAROOTDIR)/doc/schedreplay
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATAROOTDIR)/zsh/site-functions
INSTALL ?= install
DOCS := README.md $(sort $(wildcard docs/*.md))

.PHONY: all check check-run check-san check-valgrind check-clang test-bins bench-bins \
	bench fidelity demo clean fuzz fuzz-bins man install uninstall mutate

all: $(PROG) $(MAN)

$(PROG): $(BUILD)/schedreplay.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(MAN): $(PROG)
	@mkdir -p $(dir $@)
	./$(PROG) help --man >$@.tmp && mv $@.tmp $@

man: $(MAN)

# A path in a recipe, quoted for sh: '...' with each ' as '\''.  DESTDIR,
# PREFIX and the rest are the user's and may hold blanks or quotes: unquoted,
# DESTDIR='/x/pkg root' would make install create root/... here and
# uninstall remove /x/pkg.
shq = '$(subst ','\'',$(1))'

install: $(PROG) $(MAN)
	$(INSTALL) -d $(call shq,$(DESTDIR)$(BINDIR)) \
		$(call shq,$(DESTDIR)$(MANDIR)/man1) \
		$(call shq,$(DESTDIR)$(DOCDIR)/docs) \
		$(call shq,$(DESTDIR)$(BASHCOMPDIR)) \
		$(call shq,$(DESTDIR)$(ZSHCOMPDIR))
	$(INSTALL) -m 755 $(PROG) $(call shq,$(DESTDIR)$(BINDIR)/schedreplay)
	$(INSTALL) -m 644 $(MAN) $(call shq,$(DESTDIR)$(MANDIR)/man1/schedreplay.1)
	$(INSTALL) -m 644 completion/schedreplay.bash \
		$(call shq,$(DESTDIR)$(BASHCOMPDIR)/schedreplay)
	$(INSTALL) -m 644 completion/_schedreplay \
		$(call shq,$(DESTDIR)$(ZSHCOMPDIR)/_schedreplay)
	$(INSTALL) -m 644 README.md $(call shq,$(DESTDIR)$(DOCDIR)/README.md)
	$(INSTALL) -m 644 $(filter docs/%,$(DOCS)) $(call shq,$(DESTDIR)$(DOCDIR)/docs)

# The doc directory is removed whole: only when it is ours by its name.
uninstall:
	@case $(call shq,$(DOCDIR)) in */schedreplay) ;; \
	*) echo "uninstall: DOCDIR does not end in /schedreplay: not" \
		"removing it" >&2; exit 1 ;; esac
	rm -f $(call shq,$(DESTDIR)$(BINDIR)/schedreplay) \
		$(call shq,$(DESTDIR)$(MANDIR)/man1/schedreplay.1) \
		$(call shq,$(DESTDIR)$(BASHCOMPDIR)/schedreplay) \
		$(call shq,$(DESTDIR)$(ZSHCOMPDIR)/_schedreplay)
	rm -rf $(call shq,$(DESTDIR)$(DOCDIR))

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(TEST_SUPPORT_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(TEST_SUPPORT_OBJS) $(LIB) \
		$(ALL_LDFLAGS) $(LIBS)

# schedreplay.c without its main(): sr_main() for fuzz-argv.
$(BUILD)/tests/fuzz/entry.o: schedreplay.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSR_NO_MAIN -MMD -MP -c -o $@ $<

$(FUZZ_BINS): $(BUILD)/tests/fuzz/%: tests/fuzz/%.c tests/fuzz/common.c \
		tests/fuzz/driver.c tests/fuzz/fuzz.h $(BUILD)/tests/fuzz/entry.o \
		$(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/fuzz/common.c $(FUZZ_MAIN) \
		$(BUILD)/tests/fuzz/entry.o $(LIB) \
		$(ALL_LDFLAGS) $(FUZZ_WRAP) $(LIBS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(LIB) $(ALL_LDFLAGS) $(LIBS)

# The allocation-failure injector the out-of-memory test preloads
# (tests/lib/failmalloc/): not instrumented, whatever the build.
FAILMALLOC := $(BUILD)/tests/lib/failmalloc.so
$(FAILMALLOC): tests/lib/failmalloc/failmalloc.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fPIC -shared $(BASE_CFLAGS) -o $@ $< -ldl

test-bins: $(PROG) $(TEST_BINS) $(FUZZ_BINS) $(FAILMALLOC)

# One pass of the suite on this build.
check-run: test-bins
	@SCHEDREPLAY="$$(pwd)/$(PROG)" BUILD=$(BUILD) SAN=$(SAN) \
		sh tests/run.sh $(TEST_BINS)

check-san:
	@$(MAKE) --no-print-directory SAN=1 check-run

check-valgrind: $(PROG) $(FUZZ_BINS)
	@SCHEDREPLAY="$$(pwd)/$(PROG)" BUILD=$(BUILD) sh tests/valgrind.sh

# make check sets itself up first (deps.sh: installs what is missing, or
# says what to run, before anything is compiled), then runs the passes;
# each pass adds its counts to $(CHECK_SUMMARY) for the closing line.
# The tree's path may hold blanks and quotes: the recipes take it from the
# shell, quoted ("$$(pwd)", "$$CHECK_SUMMARY"), never unquoted from make's
# $(abspath), which also splits a path at its blanks.
CHECK_SUMMARY := $(CURDIR)/build/check-summary
export CHECK_SUMMARY

check:
	@sh deps.sh ensure test
	@mkdir -p build && : > "$$CHECK_SUMMARY"
	@$(MAKE) --no-print-directory check-run
	@$(MAKE) --no-print-directory SAN=1 check-run
	@$(MAKE) --no-print-directory check-valgrind
	@$(MAKE) --no-print-directory check-clang
	@sh tests/summary.sh "$$CHECK_SUMMARY"

# gcc and clang both build the tree warning-free: clang with -Werror.
check-clang:
	@$(MAKE) --no-print-directory CC=clang BUILD=build-clang \
		CFLAGS=-Werror test-bins bench-bins >/dev/null
	@echo "PASS clang -Wall -Wextra -Werror build"
	@echo "clang 1 0 0" >>"$$CHECK_SUMMARY"

# Each fuzz target for FUZZ_SECONDS (FUZZ_TARGETS=fuzz-perf ... picks some).
fuzz: $(PROG)
	@sh deps.sh ensure fuzz
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-bins
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/campaign build-fuzz \
		$(or $(FUZZ_TARGETS),$(notdir $(basename $(FUZZ_SRCS))))

fuzz-bins: $(FUZZ_BINS)

# Mutation testing (tests/mutate.sh); MUTATE_FILTER=REGEX picks the
# mutations whose file matches.
# The filter reaches the script through the environment, quoted by the
# shell: a regex's | or ( is not the recipe's.
mutate: export MUTATE_FILTER := $(MUTATE_FILTER)
mutate: $(PROG)
	@sh tests/mutate.sh tests/mutations "$$MUTATE_FILTER"

bench-bins: $(BENCH_BINS)

bench: $(PROG) $(BENCH_BINS)
	@SCHEDREPLAY="$$(pwd)/$(PROG)" BUILD=$(BUILD) sh bench/run.sh

# The fidelity table: each committed recording's replay against it
# (bench/fidelity.sh).
fidelity: $(PROG)
	@SCHEDREPLAY="$$(pwd)/$(PROG)" sh bench/fidelity.sh

demo:
	@sh ./demo.sh

clean:
	rm -rf build build-san build-fuzz build-clang schedreplay

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Debian packages: one list, in deps.sh (make check, make demo and .ci/run
# use it too).  traces/record.sh installs what recording needs.
.PHONY: deps
deps:
	@sh deps.sh install all
