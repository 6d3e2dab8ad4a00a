/**
 * A child subreaper for machines without PID namespaces, run as `python3 -c SUBREAPER command
 * args...` (Node cannot call prctl). It marks itself PR_SET_CHILD_SUBREAPER, so every orphan of
 * the server, however it detached, becomes its child instead of init's. It forwards SIGTERM and
 * SIGHUP to the server; when the server has exited it kills its children until none is left (their
 * own orphans come back to it in turn), then exits as the server did. stdio is inherited, not
 * relayed. `tini -s` was the other candidate: it exits with its child and lets the orphans go.
 */
export const SUBREAPER = String.raw`
import ctypes, os, signal, sys, time
if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:
    sys.stderr.write('mcp-gate subreaper: prctl(PR_SET_CHILD_SUBREAPER) refused\n'); sys.exit(125)
if len(sys.argv) < 2:
    sys.exit(0)
child = os.fork()
if child == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
def forward(sig, _):
    try: os.kill(child, sig)
    except OSError: pass
signal.signal(signal.SIGTERM, forward)
signal.signal(signal.SIGHUP, forward)
def children():
    me, found = os.getpid(), []
    for name in os.listdir('/proc'):
        if not name.isdigit(): continue
        try:
            with open('/proc/%s/stat' % name) as f: stat = f.read()
            if int(stat[stat.rindex(')') + 2:].split()[1]) == me: found.append(int(name))
        except (OSError, ValueError): pass
    return found
status = 0
while True:
    try: pid, status = os.waitpid(-1, 0)
    except InterruptedError: continue
    except ChildProcessError: break
    if pid == child: break
while True:
    left = children()
    for pid in left:
        try: os.kill(pid, signal.SIGKILL)
        except OSError: pass
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0: pass
    except ChildProcessError:
        if not left: break
    if left: time.sleep(0.01)
    elif not children(): break
if os.WIFSIGNALED(status):
    signal.signal(os.WTERMSIG(status), signal.SIG_DFL); os.kill(os.getpid(), os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
`;
