#!/bin/sh
# deps.sh: the one list of the Debian packages schedreplay needs, by purpose,
# and the one place that checks and installs them.  `make deps`, `make check`,
# `make demo` and .ci/run all come through here.
#
#   sh deps.sh missing GROUP...   print the missing packages (nothing: all there)
#   sh deps.sh ensure GROUP...    install the missing ones: as root with
#                                 apt-get, else through sudo when it needs no
#                                 password; otherwise stop (exit 1) with one
#                                 message naming the exact command to run
#   sh deps.sh install GROUP...   as ensure, but say so even when all are there
#   sh deps.sh list GROUP...      print every package of the groups
#
# Groups (a row may name several, comma-separated): build (compile ./schedreplay), run (plots at run time), test (make
# check: the sanitizer, valgrind and clang builds, the report in Chromium,
# the man page rendered by man and groff, the zsh completion),
# fuzz (make fuzz: libFuzzer's runtime), cluster (the tests of sweeps on
# a real Slurm cluster and on GNU parallel across hosts: Slurm, munge, sshd;
# bench (make bench: perf to record and as the yardstick, igzip as the
# fastest inflate);
# their packages set up system services, so make check does not install
# them itself and those tests skip without them: `make deps` or
# `sh deps.sh install cluster`; CI installs every group), all.  Each row: group, package, and how to tell it is there: cmd:NAME (a
# command on PATH), hdr:FILE:SYMBOL (the C compiler finds
# the header, and it defines SYMBOL), pc:NAME
# (pkg-config knows the library), deb:NAME (dpkg has it installed: a
# library found by neither).
set -u

TABLE='
build build-essential cmd:cc
build make            cmd:make
build pkg-config      cmd:pkg-config
build libpcre2-dev    hdr:pcre2.h:PCRE2_UNSET
build zlib1g-dev      hdr:zlib.h:ZLIB_VERSION
build libtraceevent-dev pc:libtraceevent
build libtracefs-dev pc:libtracefs
build libtracecmd-dev pc:libtracecmd
build libzstd-dev     pc:libzstd
build libisal-dev     pc:libisal
run   gnuplot-nox     cmd:gnuplot
run   parallel        cmd:parallel
bench linux-perf      cmd:perf
bench isal            cmd:igzip
test  valgrind        cmd:valgrind
test,fuzz clang       cmd:clang
fuzz  libclang-rt-14-dev deb:libclang-rt-14-dev
test  chromium        cmd:chromium
test  python3         cmd:python3
test  trace-cmd       cmd:trace-cmd
test  man-db          cmd:man
test  groff-base      cmd:groff
test  zsh             cmd:zsh
cluster slurmctld     deb:slurmctld
cluster slurmd        deb:slurmd
cluster slurm-client  cmd:sbatch
cluster munge         deb:munge
cluster openssh-server deb:openssh-server
cluster openssh-client cmd:ssh
cluster iproute2      deb:iproute2
'

has_header() { # has_header FILE SYMBOL: the header is there and defines it
	printf '#define PCRE2_CODE_UNIT_WIDTH 8\n#include <%s>\nstatic const unsigned long probe = sizeof(%s);\n' "$1" "$2" |
		${CC:-cc} -x c -fsyntax-only - >/dev/null 2>&1
}

present() { # present CHECK
	case $1 in
	cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
	hdr:*) h=${1#hdr:}
		command -v "${CC:-cc}" >/dev/null 2>&1 && has_header "${h%%:*}" "${h#*:}" ;;
	pc:*) pkg-config --exists "${1#pc:}" 2>/dev/null ;;
	deb:*) dpkg-query -W -f '${Status}' "${1#deb:}" 2>/dev/null |
		grep -q 'install ok installed' ;;
	*) return 1 ;;
	esac
}

in_groups() { # in_groups GROUPS: is one of them wanted ($want)?
	for g in $(echo "$1" | tr , ' '); do
		for w in $want; do
			[ "$w" = all ] && return 0
			[ "$w" = "$g" ] && return 0
			# the tests build and draw plots; the fuzzers build
			case $w:$g in test:build|test:run|fuzz:build) return 0 ;; esac
		done
	done
	return 1
}

packages() { # packages MODE: list | missing
	echo "$TABLE" | while read -r group pkg check; do
		[ -n "$group" ] || continue
		in_groups "$group" || continue
		if [ "$1" = list ] || ! present "$check"; then
			printf ' %s' "$pkg"
		fi
	done
}

apt_install() { # apt_install [sudo] PKG...: quiet, apt's output on failure
	pre=""
	if [ "$1" = sudo ]; then pre="sudo"; fi
	shift
	echo "deps: installing with ${pre:+sudo }apt-get:" "$@"
	log=$(mktemp)
	if $pre env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 &&
		$pre env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "$@" >>"$log" 2>&1; then
		rm -f "$log"
		return 0
	fi
	tail -n 30 "$log"
	rm -f "$log"
	echo "deps: apt-get failed (its last lines are above)"
	return 1
}

mode=${1:-}
[ $# -gt 0 ] && shift
want=${*:-all}
case $mode in
list) echo "$(packages list)" ;;
missing) echo "$(packages missing)" ;;
ensure|install)
	missing=$(packages missing)
	if [ -z "$missing" ]; then
		[ "$mode" = install ] && echo "deps: every package is installed"
		exit 0
	fi
	echo "deps: missing Debian packages:$missing"
	# shellcheck disable=SC2086
	if [ "$(id -u)" -eq 0 ]; then
		apt_install "" $missing || exit 1
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		apt_install sudo $missing || exit 1
	else
		echo "deps: install them as root, then run this again:"
		echo ""
		echo "    sudo apt-get install -y$missing"
		exit 1
	fi
	still=$(packages missing)
	if [ -n "$still" ]; then
		echo "deps: still missing after apt-get:$still"
		echo "deps: apt-get says they are installed, but the check above fails: see the"
		echo "      package's row in deps.sh for what is checked (a header, a command)"
		exit 1
	fi
	;;
*)
	echo "usage: sh deps.sh missing|ensure|install|list [build|run|test|fuzz|cluster|all]..." >&2
	exit 64
	;;
esac
