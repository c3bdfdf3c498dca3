#!/usr/bin/env python3
"""Snakemake 7's --cluster-status for Slurm: prints `running`, `success` or
`failed` for the job ID that `sbatch --parsable` gave.

Without a status command Snakemake learns that a job ended only from a marker
file the job script writes as its last step, so a job that Slurm cancelled,
timed out, preempted or killed for memory never ends its rule and the
workflow waits for ever. Slurm's own state is asked instead: the controller's
(`scontrol show job`, which knows every job until MinJobAge after it ends),
then the accounting database (`sacct`) for jobs the controller has
forgotten. A job neither knows is reported `failed`: its end cannot be
confirmed, and a rule that fails is rerun, while one that never ends hangs.
"""

import subprocess
import sys
import time

STILL_RUNNING = {
    "PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED",
    "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED",
    "RESV_DEL_HOLD", "POWER_UP_NODE",
}


def run(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    return (done.stdout if done.returncode == 0 else None), done.stderr.strip()


def controller_state(job):
    """The controller's state of the job; "" when it does not know the job; None when it cannot be asked."""
    out, err = run(["scontrol", "-o", "show", "job", job])
    if out is None:
        return "" if "Invalid job id" in err else None
    for field in out.split():
        if field.startswith("JobState="):
            return field.split("=", 1)[1]
    return None


def accounting_state(job):
    """The accounting database's state of the job (its allocation); "" when unknown or unavailable."""
    out, _ = run(["sacct", "-j", job, "-X", "-n", "-P", "-o", "State"])
    if not out:
        return ""
    first = out.strip().splitlines()[0].split() if out.strip() else []
    return first[0] if first else ""


def main():
    job = sys.argv[1].split(";")[0].strip()
    state = None
    # The controller may be briefly busy: three tries, two seconds apart.
    for attempt in range(3):
        state = controller_state(job)
        if state is not None:
            break
        time.sleep(2)
    if not state:
        state = accounting_state(job) or state
    if state is None:
        # The controller did not answer: ask again at Snakemake's next check.
        print("running")
        return
    state = state.rstrip("+")
    if state == "COMPLETED":
        print("success")
    elif state in STILL_RUNNING:
        print("running")
    else:
        if not state:
            state = "unknown to scontrol and sacct (ended more than MinJobAge ago, no accounting)"
        print(f"slurm job {job}: {state}", file=sys.stderr)
        print("failed")


if __name__ == "__main__":
    main()
