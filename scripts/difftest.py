#!/usr/bin/env python3
"""difftest's host side: boot the kernels, diff the records, minimise.

  difftest.py hunt SEEDS [--steps N] [--minimise K] [--skip REGEX]...
                                                      foliOS (every variant) vs live Linux
  difftest.py record                                  Linux's records of the fixed seeds
  difftest.py check [--variant V]                     foliOS vs the committed Linux records
  difftest.py diff FOLIOS_LOG LINUX_LOG [--run sN]    two console logs (build/difftest/*.log)

SEEDS: N, N-M or N,M,...  The fixed seeds are tests/difftest/seeds.txt; the
committed Linux records tests/difftest/linux/<seed>.txt; the allowed
differences tests/difftest/allow.txt (docs/difftest.md explains all three).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests", "difftest")
PEER = os.path.join(ROOT, "..", "shared", "peer", "linux-peer.sh")
BINARY = os.path.join(ROOT, "build", "user", "bin", "difftest")
VARIANTS = ("page-mapcount", "no-page-mapcount", "mapcount-pages")
RECORD = re.compile(r"(s\d+(?:k\d+)?) (\d+|end) (.*?)\s*$")
MAX_TRIALS = 12         # -k lists in one boot
MAX_ROUNDS = 10         # boots (per kernel) one minimisation may take


def log(msg):
    print(msg, flush=True)


def parse(text):
    """Console text -> {run tag: {step: record text}} ("end" is a step)."""
    runs = {}
    for line in text.replace("\r", "").splitlines():
        if line.startswith("["):        # a kernel message
            continue
        m = RECORD.search(line)
        if m:
            runs.setdefault(m.group(1), {})[m.group(2)] = m.group(3)
    return runs


def load_allow():
    """The allow-list: (compiled regex on the record's call, reason)."""
    rules = []
    with open(os.path.join(TESTS, "allow.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                pat, _, why = line.partition(" | ")
                rules.append((re.compile(pat.strip()), why.strip()))
    return rules


def step_order(step):
    return 1 << 30 if step == "end" else int(step)


def call_of(record):
    return record.split(" = ", 1)[0]


def first_divergence(mine, theirs, allow):
    """The first step whose records differ and no allow rule excuses, or None."""
    for step in sorted(set(mine) | set(theirs), key=step_order):
        a, b = mine.get(step), theirs.get(step)
        if a == b:
            continue
        call = call_of(a or b)
        if a and b and any(rx.search(call) for rx, _ in allow):
            continue
        return step
    return None


def seeds_of(spec):
    out = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def compact(steps):
    """[1,2,3,7] -> "1-3,7" (a -k list)."""
    out, steps = [], sorted(steps)
    i = 0
    while i < len(steps):
        j = i
        while j + 1 < len(steps) and steps[j + 1] == steps[j] + 1:
            j += 1
        out.append(str(steps[i]) if i == j else "%d-%d" % (steps[i], steps[j]))
        i = j + 1
    return ",".join(out) or "0"


def save(name, text):
    """Keep the last console of each kind in build/difftest/ for a closer look."""
    d = os.path.join(ROOT, "build", "difftest")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".log"), "w") as f:
        f.write(text)
    return text


def boot_folios(variant, args, timeout):
    flag = {"no-page-mapcount": ["--no-page-mapcount"],
            "mapcount-pages": ["--mapcount-pages"]}.get(variant, [])
    r = subprocess.run([os.path.join(ROOT, "run-qemu.sh")] + flag +
                       ["--run", "/bin/difftest " + args, "--timeout", str(timeout)],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=ROOT)
    return save(variant, r.stdout.decode(errors="replace"))


def boot_linux(args, timeout):
    r = subprocess.run(["timeout", str(timeout), PEER, "--mounts", "--mem", "1G", BINARY] +
                       args.split(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=ROOT)
    return save("linux", r.stdout.decode(errors="replace"))


def have_peer():
    return os.access(PEER, os.X_OK) and any(
        f.startswith("vmlinuz-") for f in os.listdir("/boot") if os.path.isdir("/boot"))


def boot_timeout(nruns):
    return 120 + 25 * nruns


def show(tag, step, mine, theirs, name):
    for s in sorted(set(mine) | set(theirs), key=step_order):
        if step_order(s) > step_order(step):
            break
        a, b = mine.get(s), theirs.get(s)
        if a == b:
            log("      %s %s %s" % (tag, s, a))
        else:
            log("    %s: %s %s %s" % (name, tag, s, a))
            log("    linux:%s %s %s %s" % (" " * (len(name) - 5), tag, s, b))


def minimise(variant, seed, steps, step, allow):
    """Delta debugging: the fewest steps before `step` that keep the divergence there."""
    keep = list(range(1, int(step))) if step != "end" else list(range(1, steps + 1))
    final = [] if step == "end" else [int(step)]
    n, rounds, best = 2, 0, None

    def trials(cands):
        args = "%d %d %s" % (seed, steps, " ".join("-k " + compact(c + final) for c in cands))
        f = parse(boot_folios(variant, args, boot_timeout(len(cands))))
        l = parse(boot_linux(args, boot_timeout(len(cands))))
        for i, c in enumerate(cands):
            tag = "s%dk%d" % (seed, i + 1)
            if first_divergence(f.get(tag, {}), l.get(tag, {}), allow) == step:
                return c, f[tag], l[tag], tag
        return None

    cands = [[]]
    while rounds < MAX_ROUNDS:
        chunk = max(1, (len(keep) + n - 1) // n)
        parts = [keep[i:i + chunk] for i in range(0, len(keep), chunk)]
        comps = [[s for s in keep if s not in p] for p in parts] if len(parts) > 1 else []
        cands = (cands + comps)[:MAX_TRIALS]
        if not cands:
            break
        rounds += 1
        hit = trials(cands)
        cands = []
        if hit:
            best = hit
            keep = hit[0]
            n = max(n - 1, 2)
            if not keep:
                break
        elif n >= len(keep):
            break
        else:
            n = min(2 * n, len(keep))
    return best, rounds


def diff_runs(name, fol, lin, allow, want=None):
    """Per run: ok / not ok lines; returns [(tag, step)] of the divergent ones."""
    bad = []
    for tag in want or sorted(lin, key=lambda t: int(re.sub(r"\D.*", "", t[1:]))):
        step = first_divergence(fol.get(tag, {}), lin.get(tag, {}), allow)
        steps = max((step_order(s) for s in lin.get(tag, {}) if s != "end"), default=0)
        if step is None and tag in fol and tag in lin:
            log("ok - difftest %s: %d steps as Linux (%s)" % (tag, steps, name))
        else:
            bad.append((tag, step))
            mine = fol.get(tag, {}).get(step) or "no record"
            theirs = (lin.get(tag, {}).get(step) or "no record").split(" = ", 1)[-1]
            log("not ok - difftest %s: %d steps (%s) # step %s: %s (Linux: %s)" %
                (tag, steps, name, step, mine, theirs))
    return bad


def cmd_hunt(a):
    allow = load_allow() + [(re.compile(x), "--skip") for x in a.skip or []]
    seeds = seeds_of(a.seeds)
    args = "%s %d" % (a.seeds, a.steps)
    log("# Linux: difftest %s" % args)
    lin = parse(boot_linux(args, boot_timeout(len(seeds))))
    total = clean = 0
    todo = []
    for variant in VARIANTS:
        log("# foliOS %s: difftest %s" % (variant, args))
        fol = parse(boot_folios(variant, args, boot_timeout(len(seeds))))
        bad = diff_runs(variant, fol, lin, allow, ["s%d" % s for s in seeds])
        total += len(seeds)
        clean += len(seeds) - len(bad)
        todo += [(variant, tag, step, fol.get(tag, {}), lin.get(tag, {})) for tag, step in bad]
    log("# %d of %d seed runs (%d steps each) clean" % (clean, total, a.steps))
    seen = set()
    for variant, tag, step, f, l in todo:
        key = call_of(f.get(step) or l.get(step) or "")
        key = re.sub(r"0x[0-9a-f]+|\d+", "N", key)
        if key in seen or len(seen) >= a.minimise:
            continue
        seen.add(key)
        log("# first divergence of %s (%s) at step %s:" % (tag, variant, step))
        show(tag, step, f, l, "foliOS")
        best, rounds = minimise(variant, int(tag[1:]), a.steps, step, allow)
        if best:
            log("# minimised in %d boots each: difftest %s %d -k %s" %
                (rounds, tag[1:], a.steps, compact(best[0] + ([] if step == "end" else [int(step)]))))
            show(best[3], step, best[1], best[2], "foliOS")
        else:
            log("# not minimised (%d boots each): it did not reproduce alone" % rounds)
    if have_peer() and not a.no_check:
        log("# the committed Linux records are what Linux prints now:")
        cmd_record(argparse.Namespace(check=True))
    return 0 if clean == total else 1


def fixed_seeds():
    with open(os.path.join(TESTS, "seeds.txt")) as f:
        words = [w for line in f if not line.startswith("#") for w in line.split()]
    return int(words[0]), [int(w) for w in words[1:]]


def record_text(runs, seed, steps):
    rec = runs.get("s%d" % seed, {})
    return "# difftest %d %d on Linux\n" % (seed, steps) + "".join(
        "s%d %s %s\n" % (seed, s, rec[s]) for s in sorted(rec, key=step_order))


def cmd_record(a):
    steps, seeds = fixed_seeds()
    spec = ",".join(map(str, seeds))
    runs = parse(boot_linux("%s %d" % (spec, steps), boot_timeout(len(seeds))))
    bad = 0
    for seed in seeds:
        text = record_text(runs, seed, steps)
        path = os.path.join(TESTS, "linux", "%d.txt" % seed)
        if "s%d" % seed not in runs or "end" not in runs["s%d" % seed]:
            log("not ok - Linux ran difftest seed %d to its end" % seed)
            bad += 1
        elif a.check:
            old = open(path).read() if os.path.exists(path) else ""
            ok = old == text
            bad += not ok
            log("%s - committed Linux record of seed %d is what Linux prints" %
                ("ok" if ok else "not ok", seed))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            log("wrote %s" % os.path.relpath(path, ROOT))
    return 1 if bad else 0


def cmd_check(a):
    allow = load_allow()
    steps, seeds = fixed_seeds()
    lin = {}
    for seed in seeds:
        with open(os.path.join(TESTS, "linux", "%d.txt" % seed)) as f:
            lin.update(parse(f.read()))
    spec = ",".join(map(str, seeds))
    bad = 0
    for variant in a.variant or VARIANTS:
        out = boot_folios(variant, "%s %d" % (spec, steps), boot_timeout(len(seeds)))
        if a.log:
            with open(a.log % variant, "w") as f:
                f.write(out)
        bad += len(diff_runs(variant, parse(out), lin, allow, ["s%d" % s for s in seeds]))
    return 1 if bad else 0


def cmd_diff(a):
    allow = load_allow()
    fol, lin = (parse(open(p, errors="replace").read()) for p in (a.folios, a.linux))
    bad = diff_runs("foliOS", fol, lin, allow)
    for tag, step in [b for b in bad if b[0] == a.run] or bad[:1]:
        show(tag, step, fol.get(tag, {}), lin.get(tag, {}), "foliOS")
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("hunt")
    h.add_argument("seeds")
    h.add_argument("--steps", type=int, default=40)
    h.add_argument("--minimise", type=int, default=3, help="divergence classes to minimise")
    h.add_argument("--no-check", action="store_true", help="skip the committed records' check")
    h.add_argument("--skip", action="append", metavar="REGEX",
                   help="a known divergence, treated as allowed in this hunt (repeatable)")
    r = sub.add_parser("record")
    r.add_argument("--check", action="store_true", help="compare, do not write")
    c = sub.add_parser("check")
    c.add_argument("--variant", action="append", choices=VARIANTS)
    c.add_argument("--log", help="save each console, %%s = variant")
    d = sub.add_parser("diff")
    d.add_argument("folios")
    d.add_argument("linux")
    d.add_argument("--run", help="show this run's first divergence (default: the first run's)")
    a = p.parse_args()
    if a.cmd in ("hunt", "record") and not have_peer():
        log("difftest: no Linux peer (../shared/peer/linux-peer.sh and /boot/vmlinuz-*)")
        return 2
    return {"hunt": cmd_hunt, "record": cmd_record, "check": cmd_check, "diff": cmd_diff}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
