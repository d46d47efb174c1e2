#!/bin/sh
# mpi-netns.sh - slide-mpi across two "hosts" that only TCP connects: two
# network namespaces made here, joined by a veth pair with private
# addresses chosen here (10.213.X.1 and .2 in a /30 of their own; no other
# address is ever a target).  Run by tests/test_mpi_netns.c (make test).
#
#   mpirun runs in namespace A; the hostfile names the two addresses; the
#   launch agent (--mca plm_rsh_agent) is a script that runs what ssh
#   would run on a host in that host's namespace (ip netns exec), with a
#   host name of its own (unshare --uts, where it exists); MPI goes over
#   TCP only (btl tcp,self; btl_tcp_if_include and oob_tcp_if_include the
#   /30), --bind-to none.
#
# Checks, against the published histograms of tests/data/histograms.tsv
# (OEIS; not produced by slide): 2x5 with P = 2 (one process per host) and
# P = 3, 3x3 with P = 4 and 2 threads each, every one with a small exchange
# budget so that layers take several rounds over the wire; that bytes went
# over the veth pair; then a 2x5 search checkpointed at every layer whose
# process on host B is killed (SIGKILL) mid-search: mpirun must fail, and
# --resume from the checkpoint must end on the published histogram.
#
# Everything made here (namespaces, the veth pair, which goes with them, the
# processes in them, the temporary directory) is removed on exit, failed or
# not.  Exit 0: passed; 77: cannot run here (one line "skip: ..." says why);
# anything else: failed (the reason on stderr).  Bounded: every mpirun
# runs under timeout.
set -u
BIN=${SLIDE_MPI_BIN:?SLIDE_MPI_BIN names build/slide-mpi}
DATA=${TEST_DATA_DIR:?TEST_DATA_DIR names tests/data}
LIMIT=${NETNS_MPI_TIMEOUT:-120} # seconds per mpirun

skip() {
    echo "skip: $*"
    exit 77
}
fail() {
    echo "mpi-netns: $*" >&2
    exit 1
}

[ "$(id -u)" = 0 ] || skip "not root: network namespaces need root"
command -v ip >/dev/null 2>&1 || skip "no ip command (iproute2)"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun (Open MPI)"
command -v timeout >/dev/null 2>&1 || skip "no timeout command (coreutils)"
[ -x "$BIN" ] || fail "no $BIN"

tag=sl$$
A=${tag}a B=${tag}b
net=10.213.$(($$ % 256))
ipA=$net.1 ipB=$net.2 cidr=$net.0/30
tmp=$(mktemp -d /tmp/slide-netns-XXXXXX) || fail "no temporary directory"
made=""

cleanup() {
    for ns in $made; do
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -9 $pids 2>/dev/null
    done
    for ns in $made; do
        ip netns del "$ns" 2>/dev/null
    done
    ip link del "${tag}va" 2>/dev/null # only if it never reached its namespace
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ip netns add "$A" 2>"$tmp/err" || skip "ip netns add failed: $(head -n 1 "$tmp/err")"
made=$A
ip netns add "$B" || fail "ip netns add $B"
made="$A $B"
ip link add "${tag}va" type veth peer name "${tag}vb" 2>"$tmp/err" ||
    skip "no veth pair: $(head -n 1 "$tmp/err")"
ip link set "${tag}va" netns "$A" && ip link set "${tag}vb" netns "$B" &&
    ip -n "$A" addr add "$ipA/30" dev "${tag}va" && ip -n "$B" addr add "$ipB/30" dev "${tag}vb" &&
    ip -n "$A" link set lo up && ip -n "$B" link set lo up &&
    ip -n "$A" link set "${tag}va" up && ip -n "$B" link set "${tag}vb" up ||
    fail "cannot set up the veth pair"

# the launch agent: what ssh HOST COMMAND would run, in HOST's namespace
uts=""
unshare --uts true 2>/dev/null && uts="unshare --uts"
cat > "$tmp/agent" <<EOF
#!/bin/sh
host=\$1
shift
case \$host in
$ipA) ns=$A ;;
$ipB) ns=$B ;;
*) echo "agent: no host \$host here" >&2; exit 1 ;;
esac
if [ -n "$uts" ]; then
    exec ip netns exec "\$ns" $uts sh -c "hostname slide-\$ns; \$*"
fi
exec ip netns exec "\$ns" sh -c "\$*"
EOF
chmod +x "$tmp/agent"
printf '%s slots=2\n%s slots=2\n' "$ipA" "$ipB" > "$tmp/hosts"

# mpirun NPROCS ARGS...: slide-mpi over both namespaces, output in $tmp/out
# and $tmp/err; its exit status
run() {
    np=$1
    shift
    timeout -k 10 "$LIMIT" ip netns exec "$A" env ASAN_OPTIONS=detect_leaks=0 \
        mpirun --allow-run-as-root --hostfile "$tmp/hosts" -n "$np" --map-by node \
        --bind-to none --mca mpi_yield_when_idle 1 --mca plm_rsh_agent "$tmp/agent" --mca plm_rsh_no_tree_spawn 1 \
        --mca btl tcp,self --mca btl_tcp_if_include "$cidr" --mca oob_tcp_if_include "$cidr" \
        -x ASAN_OPTIONS -x SLIDE_MPI_PAUSE_MS \
        "$BIN" "$@" > "$tmp/out" 2> "$tmp/err"
}

# the distance counts of $tmp/out, comma-separated
got() {
    sed -n '/distance *count/,/^boards reached/p' "$tmp/out" |
        awk '$1 ~ /^[0-9]+$/ && NF == 3 { printf "%s%s", s, $2; s = "," }'
}

# published RxC: the counts of histograms.tsv's corner row
published() {
    awk -F '\t' -v b="$1" '$1 == b && $2 == "corner" { print $5 }' "$DATA/histograms.tsv"
}

check() { # check LABEL RxC: the run's histogram is the published one
    want=$(published "$2")
    [ -n "$want" ] || fail "$1: no published histogram of $2"
    [ "$(got)" = "$want" ] ||
        fail "$1: histogram $(got) is not the published $want; stderr: $(tail -n 5 "$tmp/err")"
}

tx() { # bytes sent by host B's end of the pair
    ip -n "$B" -s link show "${tag}vb" | awk '/TX:/ { getline; print $1; exit }'
}

export SLIDE_MPI_PAUSE_MS=0
sent0=$(tx)
run 2 bfs 2x5 --mpi --threads 1 --budget 16K --stats || fail "2x5 P=2: exit $?: $(tail -n 5 "$tmp/err")"
check "2x5 P=2" 2x5
grep -q 'processes 2,' "$tmp/out" || fail "2x5 P=2: not 2 processes"
sent1=$(tx)
[ "$((sent1 - sent0))" -gt 100000 ] || fail "2x5 P=2: only $((sent1 - sent0)) bytes left host B"
run 3 bfs 2x5 --mpi --threads 1 --budget 64K || fail "2x5 P=3: exit $?: $(tail -n 5 "$tmp/err")"
check "2x5 P=3" 2x5
run 4 bfs 3x3 --mpi --threads 2 --budget 64K || fail "3x3 P=4 T=2: exit $?: $(tail -n 5 "$tmp/err")"
check "3x3 P=4 T=2" 3x3

# a lost host: B's process killed in the middle of the search
ck=$tmp/ck
(
    export SLIDE_MPI_PAUSE_MS=100 # rank 0 waits 100 ms a layer: 55 layers, about 6 s
    run 2 bfs 2x5 --mpi --threads 1 --budget 16K --checkpoint "$ck" --checkpoint-every 0
) &
job=$!
radius=0
for i in $(seq 1 2400); do # up to 2 minutes
    radius=$(sed -n 's/^radius //p' "$ck/mpi-state" 2>/dev/null)
    [ "${radius:-0}" -ge 10 ] && break
    sleep 0.05
done
[ "${radius:-0}" -ge 10 ] || { kill $job 2>/dev/null; fail "no checkpoint at distance 10"; }
victim=""
for p in $(ip netns pids "$B"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "slide-mpi" ] && victim=$p
done
[ -n "$victim" ] || { kill $job 2>/dev/null; fail "no slide-mpi process on host B"; }
kill -9 "$victim"
killed=$(date +%s)
wait $job
status=$?
# (mpirun passes on the killed process's 128 + 9; a timeout would take LIMIT s)
[ "$status" -ne 0 ] || fail "mpirun exited 0 after its process on host B was killed"
[ $(($(date +%s) - killed)) -lt "$LIMIT" ] || fail "mpirun did not end after the kill (timeout)"
grep -q 'signal 9' "$tmp/err" || fail "mpirun did not name the killed process: $(tail -n 5 "$tmp/err")"
at=$(sed -n 's/^radius //p' "$ck/mpi-state")
[ "${at:-0}" -ge 10 ] && [ "${at:-0}" -lt 55 ] || fail "the checkpoint is at distance ${at:-?}"
run 2 bfs --mpi --resume "$ck" --threads 1 --budget 16K || fail "resume: exit $?: $(tail -n 5 "$tmp/err")"
check "resumed from distance $at after a kill" 2x5
echo "mpi-netns: 2x5 P=2 and 3, 3x3 P=4 x 2 threads over TCP between namespaces $A and $B" \
     "($((sent1 - sent0)) bytes from B for 2x5 P=2); killed at distance $at, resumed: published histograms"
