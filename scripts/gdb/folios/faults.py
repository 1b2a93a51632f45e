"""Page-fault stops: CR2, the decoded error code, the task and its VMA."""
import gdb

from folios import utils

ERROR_BITS = [(0, "protection-violation", "not-present"), (1, "write", "read"),
              (2, "user", "kernel")]
EXTRA_BITS = [(3, "reserved-bit"), (4, "instruction-fetch"), (5, "protection-key"),
              (6, "shadow-stack")]


def decode_error(code):
    words = [yes if code & (1 << bit) else no for bit, yes, no in ERROR_BITS]
    words += [name for bit, name in EXTRA_BITS if code & (1 << bit)]
    return " ".join(words)


def report(frame):
    """Print CR2 and the error code at a stop in do_page_fault."""
    try:
        cr2 = utils.value("cr2")
    except gdb.error:
        cr2 = utils.value("$cr2")
    try:
        code = utils.value("regs->error_code")
    except gdb.error:
        code = utils.value("((struct pt_regs *)$rdi)->error_code")
    gdb.set_convenience_variable("pf_addr", cr2)
    gdb.set_convenience_variable("pf_error", code)
    print("page fault: CR2=%#x error_code=%#x [%s]  ($pf_addr, $pf_error)" % (
        cr2, code, decode_error(code)))
    print("  %s" % where(cr2))


def where(addr):
    """The faulting task and the VMA holding addr (or why there is none)."""
    from folios import tasks
    try:
        cur = gdb.parse_and_eval(utils.current_task()).dereference()
    except gdb.error:
        return "task: unknown"
    who = "task %d (%s)" % (int(cur["pid"]), cur["comm"].string())
    if addr >= 1 << 47 or not int(cur["mm"]):
        return who + ", kernel address"
    head = int(cur["mm"]["mmap"].address)
    for vma in tasks.list_entries(head, "struct vm_area_struct", "vm_list"):
        if int(vma["vm_start"]) <= addr < int(vma["vm_end"]):
            flags = int(vma["vm_flags"])
            names = " ".join(n for bit, n in tasks.VM_FLAGS if flags & bit)
            return who + ", VMA %#x-%#x %s" % (int(vma["vm_start"]), int(vma["vm_end"]), names)
    return who + ", no VMA: SIGSEGV"


def on_stop(event):
    try:
        frame = gdb.newest_frame()
        if frame.name() == "do_page_fault":
            report(frame)
    except gdb.error:
        pass


gdb.events.stop.connect(on_stop)


class PfBreak(gdb.Command):
    """Stop at every page fault the kernel handles (breakpoint on do_page_fault).
At each stop the fault is printed: CR2 (the faulting address), the error
code with its bits decoded (P/W/U/R/I), the faulting task and the VMA the
address falls in.  $pf_addr and $pf_error hold them,
so e.g. `pgwalk $pf_addr` shows why the walk failed.
Usage: pfbreak"""

    def __init__(self):
        super().__init__("pfbreak", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        gdb.Breakpoint("do_page_fault", internal=False)


PfBreak()
