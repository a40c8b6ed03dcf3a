# cluster.sh: a real one-node Slurm cluster, and a second host to reach
# over ssh, for a test.  Source it after lib.sh.
#
#	cluster_need                skip unless Slurm, munge and root are there
#	cluster_start               munged, slurmctld and slurmd, up and idle
#	host_need, host_start       sshd as a second host (see host_start)
#
# Everything is in $T/cluster, made for the test: the munge key and socket,
# slurm.conf and cgroup.conf (ports on the loopback, chosen free when the
# test runs), the controller's state, the node's spool, the logs.  Nothing
# of the machine's own services is used or touched (no systemctl, nothing
# written under /etc, /run or /var): clients find the cluster through
# SLURM_CONF, Slurm finds munged through AuthInfo=socket=.  Every daemon is
# started by this shell, in the foreground, and stopped by its PID at the
# test's end, whatever the outcome (cluster_stop, in the EXIT trap), after
# the jobs still there are cancelled.
set -u

CL=$T/cluster
CL_PIDS=""		# the daemons, last started first
CL_JOBS=""		# the jobs submitted: cancelled at the end if still there
CL_LINKS=""		# veth ends made on this side
CL_NODE=srnode
# the daemons, ip and nsenter are in sbin, not on every user's PATH
PATH=$PATH:/usr/sbin:/sbin

# need_root WHAT: skip unless root (daemons that change user, namespaces)
need_root() {
	[ "$(id -u)" -eq 0 ] || skip "missing privilege: $1 needs root"
}

# wait_for SECONDS WHAT CMD...: poll CMD every 0.05 s until it succeeds;
# fail naming WHAT after SECONDS.
wait_for() {
	wf_left=$(($1 * 20)) wf_what=$2
	shift 2
	until "$@" 2>/dev/null; do
		wf_left=$((wf_left - 1))
		[ "$wf_left" -gt 0 ] || fail "waited too long for $wf_what"
		sleep 0.05
	done
}

# free_ports N: N TCP ports on the loopback that nothing listens on now
free_ports() {
	python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s:
	x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"
}

# cl_daemon NAME CMD...: start CMD in the background, its output in
# $CL/NAME.log; its PID is kept to stop it.  (Not from a subshell: the
# PID must be this shell's child.)
cl_daemon() {
	cl_name=$1
	shift
	"$@" >"$CL/$cl_name.log" 2>&1 &
	CL_PIDS="$! $CL_PIDS"
}

# cl_stop_pid PID: TERM, and KILL if it has not ended within 10 s
cl_stop_pid() {
	kill "$1" 2>/dev/null || return 0
	(sleep 10 && kill -KILL "$1" 2>/dev/null) &
	cl_dog=$!
	wait "$1" 2>/dev/null
	kill "$cl_dog" 2>/dev/null
	wait "$cl_dog" 2>/dev/null
}

# The jobs still there cancelled (while the controller runs), then every
# daemon stopped by its PID, then the veth pairs deleted.
cluster_stop() {
	if [ -n "$CL_JOBS" ] && [ -n "${SLURM_CONF:-}" ]; then
		# shellcheck disable=SC2086
		scancel $CL_JOBS 2>/dev/null
		# a job step's socket is in the spool until its slurmstepd ends
		n=200
		while [ $n -gt 0 ] && ls "$CL/spool/" 2>/dev/null |
			grep -q "^${CL_NODE}_"; do
			sleep 0.05
			n=$((n - 1))
		done
	fi
	for pid in $CL_PIDS; do
		cl_stop_pid "$pid"
	done
	CL_PIDS=""
	for l in $CL_LINKS; do
		ip link del "$l" 2>/dev/null
	done
	CL_LINKS=""
}

trap 'cluster_stop; rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

cluster_need() {
	need slurmctld slurmctld
	need slurmd slurmd
	need sbatch slurm-client
	need munged munge
	need munge munge
	need python3 python3
	need_root "a Slurm cluster (slurmd, SlurmUser=root)"
	unshare --mount --propagation private true 2>/dev/null ||
		skip "missing privilege: cannot make a mount namespace (unshare --mount)"
}

# The node's hardware as slurmd finds it (CPUs=... RealMemory=...), its
# name replaced.
cl_node_line() {
	slurmd -C | sed -n 's/^NodeName=[^ ]* //p' | head -n 1
}

# cluster_start: munged, slurmctld, slurmd; returns when the node is idle.
# CL_NODE_SETUP, if set, is run by sh in slurmd's own mount namespace
# before slurmd starts (the node's view of the files; its jobs inherit
# it).  Sets SLURM_CONF (exported) and CL_START_S (seconds to start).
cluster_start() {
	# munged wants every directory above its socket searchable by all
	chmod 711 "$T"
	mkdir -m 711 "$CL"
	mkdir -m 755 "$CL/run"
	mkdir "$CL/state" "$CL/spool"
	dd if=/dev/urandom of="$CL/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$CL/munge.key"
	set -- $(free_ports 2)
	node=$(cl_node_line)
	[ -n "$node" ] || fail "slurmd -C gave no node line"
	cat >"$CL/slurm.conf" <<EOF
# a one-node cluster for a test (tests/lib/cluster.sh)
ClusterName=srtest
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$CL/run/munge.sock
StateSaveLocation=$CL/state
SlurmdSpoolDir=$CL/spool
SlurmctldPidFile=$CL/run/slurmctld.pid
SlurmdPidFile=$CL/run/slurmd.pid
SlurmctldLogFile=$CL/slurmctld.file.log
SlurmdLogFile=$CL/slurmd.file.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SchedulerParameters=batch_sched_delay=0
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
ReturnToService=2
NodeName=$CL_NODE NodeHostname=localhost NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=test Nodes=$CL_NODE Default=YES MaxTime=INFINITE State=UP
EOF
	# read by slurmd; the plugins above use no cgroup
	echo "CgroupPlugin=autodetect" >"$CL/cgroup.conf"
	SLURM_CONF=$CL/slurm.conf
	export SLURM_CONF
	cl_t0=$(date +%s%N)
	cl_daemon munged munged --foreground \
		--socket="$CL/run/munge.sock" --key-file="$CL/munge.key" \
		--pid-file="$CL/run/munged.pid" --seed-file="$CL/munged.seed" \
		--log-file="$CL/munged.file.log"
	wait_for 10 "munged's socket" test -S "$CL/run/munge.sock"
	cl_daemon slurmctld slurmctld -D -f "$SLURM_CONF"
	cl_daemon slurmd unshare --mount --propagation private sh -c \
		"${CL_NODE_SETUP:-:} && exec \"\$0\" -D -N $CL_NODE -f \"\$1\"" \
		slurmd "$SLURM_CONF"
	wait_for 30 "the node to be idle (logs in $CL)" cl_idle
	CL_START_S=$(( ($(date +%s%N) - cl_t0) / 1000000 ))
	CL_START_S=$((CL_START_S / 1000)).$(printf '%03d' $((CL_START_S % 1000)))
}

cl_idle() {
	[ "$(sinfo -h -n "$CL_NODE" -o %T)" = idle ]
}

# submit SCRIPT [OPTION...]: sbatch it; JOB is its id.
submit() {
	sb_out=$(sbatch --parsable "$@" 2>"$T/sberr") ||
		fail "sbatch $*: $(cat "$T/sberr")"
	JOB=${sb_out%%;*}
	[ -n "$JOB" ] || fail "sbatch $*: no job id"
	CL_JOBS="$CL_JOBS $JOB"
}

# job_states ID: "TASK STATE EXIT:SIGNAL" per array task, from the
# controller's record of the job (squeue and sacct are not needed)
job_states() {
	scontrol show job -o "$1" | awk '{
		t = s = x = "?"
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^ArrayTaskId=/) t = substr($i, 13)
			if ($i ~ /^JobState=/) s = substr($i, 10)
			if ($i ~ /^ExitCode=/) x = substr($i, 10)
		}
		print t, s, x
	}' | sort -n
}

# job_wait ID: until every task of job ID has ended (at most 120 s); the
# tasks' states in $T/states (job_states)
job_wait() {
	wait_for 120 "job $1 to end" job_ended "$1"
}

job_ended() {
	job_states "$1" >"$T/states" &&
		[ -s "$T/states" ] &&
		! awk '$2 !~ /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE)$/ { bad = 1 } END { exit !bad }' "$T/states"
}

# cl_unshared PID: PID is in a network namespace other than ours
cl_unshared() {
	[ "$(readlink "/proc/$1/ns/net")" != "$(readlink /proc/self/ns/net)" ]
}

host_need() {
	need sshd openssh-server
	need ssh openssh-client
	need ssh-keygen openssh-client
	need ip iproute2
	need unshare util-linux
	need nsenter util-linux
	need_root "a second host (network and mount namespaces)"
	unshare --mount --net --uts --propagation private true 2>/dev/null ||
		skip "missing privilege: cannot make network, mount and UTS namespaces (unshare)"
}

# host_start: a second host to reach over ssh: sshd (openssh-server) in
# network, mount and UTS namespaces of its own (hostname sr-host2), on the
# far end of a veth pair: HOST_ADDR, in 198.18.0.0/15 (addresses set aside
# for network tests; a /30 picked from this shell's PID, the next free one
# if taken).  It has the files of this machine (as a shared file system
# would), its own /run (a tmpfs: sshd wants /run/sshd), its own sshd_config
# (no PAM, no password, keys made for the test) and a user key made here;
# HOST_SSH is the ssh command line that reaches it (for parallel --ssh),
# HOST_LOGIN its login.
host_start() {
	H2=$T/host2
	mkdir -m 700 "$H2"
	ssh-keygen -q -t ed25519 -N '' -C sr-host2 -f "$H2/host_key" ||
		fail "ssh-keygen"
	ssh-keygen -q -t ed25519 -N '' -C sr-test -f "$H2/user_key" ||
		fail "ssh-keygen"
	cp "$H2/user_key.pub" "$H2/authorized_keys"
	mkfifo "$H2/go"
	n=$(($$ % 32768))
	while :; do
		base=$((n * 4))
		net=198.$((18 + base / 65536)).$((base / 256 % 256))
		c=$((base % 256))
		HOST_ADDR=$net.$((c + 2))
		ip -4 addr show | grep -q "inet $net\.$((c + 1))/" || break
		n=$(((n + 1) % 32768))
	done
	cat >"$H2/sshd_config" <<EOC
ListenAddress $HOST_ADDR
Port 22
HostKey $H2/host_key
PidFile $H2/sshd.pid
AuthorizedKeysFile $H2/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel VERBOSE
EOC
	cl_daemon sshd unshare --mount --net --uts --propagation private \
		sh -c 'read go <"$1" &&
		mount -t tmpfs -o mode=755 sr-run /run && mkdir -m 755 /run/sshd &&
		hostname sr-host2 && ip link set lo up &&
		exec "$2" -D -e -f "$3"' sh "$H2/go" "$(command -v sshd)" \
		"$H2/sshd_config"
	ns=${CL_PIDS%% *}
	wait_for 10 "the host's namespaces" cl_unshared "$ns"
	# the veth pair: this end here, the other in the host's namespace
	ip link add "srv$ns" type veth peer name "srw$ns" netns "$ns" ||
		fail "cannot make a veth pair"
	CL_LINKS="$CL_LINKS srv$ns"
	ip addr add "$net.$((c + 1))/30" dev "srv$ns" &&
		ip link set "srv$ns" up &&
		nsenter -t "$ns" -n ip addr add "$HOST_ADDR/30" dev "srw$ns" &&
		nsenter -t "$ns" -n ip link set "srw$ns" up ||
		fail "cannot set the veth pair up"
	echo go >"$H2/go"
	echo "$HOST_ADDR $(cut -d ' ' -f 1,2 "$H2/host_key.pub")" \
		>"$H2/known_hosts"
	HOST_SSH="ssh -F none -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=$H2/known_hosts -i $H2/user_key"
	HOST_LOGIN=root@$HOST_ADDR
	wait_for 10 "sshd on $HOST_ADDR (log: $CL/sshd.log)" \
		grep -q "Server listening on $HOST_ADDR" "$CL/sshd.log"
}
