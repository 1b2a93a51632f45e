"""Processes: the task list, a task's VMAs with the folios mapped in them,
loading a user program's symbols, and the linker/NASM symbols with types."""
import os

import gdb

from folios import utils, mm

STATES = {0: "R", 1: "S", 2: "Z"}
VM_FLAGS = [(0x1, "r"), (0x2, "w"), (0x4, "x"), (0x8, "shared"), (0x100, "growsdown"),
            (0x400, "pfnmap"), (0x20000000, "hugepage"), (0x40000000, "nohugepage")]
VM_PFNMAP = 0x400


def list_entries(head, type_name, member):
    """The structs of type_name linked into the list_head at address head."""
    typ = gdb.lookup_type(type_name)
    offset = int(gdb.parse_and_eval("(unsigned long)&((%s *)0)->%s" % (type_name, member)))
    node = int(gdb.parse_and_eval("((struct list_head *)%d)->next" % head))
    while node != head:
        yield gdb.Value(node - offset).cast(typ.pointer()).dereference()
        node = int(gdb.parse_and_eval("((struct list_head *)%d)->next" % node))


def tasks():
    head = int(gdb.parse_and_eval("(unsigned long)&all_tasks"))
    return list_entries(head, "struct task_struct", "task_list")


def find_task(pid):
    for t in tasks():
        if int(t["pid"]) == pid:
            return t
    raise gdb.GdbError("no task with pid %d" % pid)


def task_root(pid):
    """Physical address of a task's page-table root."""
    t = find_task(pid)
    if not int(t["mm"]):
        raise gdb.GdbError("pid %d has no mm (a kernel task)" % pid)
    return int(t["mm"]["pgd"]) - utils.PAGE_OFFSET


class Tasks(gdb.Command):
    """List every task: PID, state (R runnable, S sleeping, Z zombie), parent,
its mm (MM ID, anon pages mapped) and name.
Usage: tasks"""

    def __init__(self):
        super().__init__("tasks", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        current = utils.value(utils.current_task())
        print("%5s %5s %-2s %-18s %5s %8s  %s" % ("PID", "PPID", "ST", "mm", "mm_id",
                                                 "rss_anon", "comm"))
        for t in tasks():
            mm_ptr = int(t["mm"])
            parent = int(t["parent"]["pid"]) if int(t["parent"]) else 0
            mark = "*" if int(t.address) == current else " "
            print("%5d %5d %-2s %#-18x %5s %8s  %s%s" % (
                int(t["pid"]), parent, STATES.get(int(t["state"]), "?"), mm_ptr,
                int(t["mm"]["mm_id"]) if mm_ptr else "-",
                int(t["mm"]["rss_anon"]) if mm_ptr else "-", t["comm"].string(), mark))


SHIFTS = {"PML4": 39, "PDPT": 30, "PD": 21, "PT": 12}


def lookup(addr, root):
    """(pfn, leaf size) for a mapped addr, or (None, where the hole ends)."""
    for name, _, _, _, entry, kind, size in mm.walk(addr, root):
        if kind == "none":
            shift = SHIFTS[name]
            return None, ((addr >> shift) + 1) << shift
        if kind == "leaf":
            return ((entry & utils.PFN_MASK & ~(size - 1)) + (addr & (size - 1))) >> 12, size
    return None, addr + 4096


def folio_runs(root, start, end):
    """Runs of consecutive mapped pages of one folio in [start, end):
    (first address, pages, pfn, head pfn, order, mapped by a PMD leaf)."""
    addr = start
    while addr < end:
        pfn, size = lookup(addr, root)
        if pfn is None:
            addr = size
            continue
        head, order = folio_of(pfn)
        n = 1
        while addr + n * 4096 < end and pfn + n < head + (1 << order) and \
                lookup(addr + n * 4096, root)[0] == pfn + n:
            n += 1
        yield addr, n, pfn, head, order, size == 1 << 21
        addr += n * 4096


def folio_of(pfn):
    """(head pfn, order) of the folio holding pfn."""
    page = utils.page_struct(utils.pfn_to_page(pfn))
    ch = int(page["compound_head"])
    head = utils.page_to_pfn(ch - 1) if ch & 1 else pfn
    hp = utils.page_struct(utils.pfn_to_page(head))
    if not int(hp["flags"]) & (1 << int(gdb.parse_and_eval("(int)PG_head"))):
        return head, 0
    second = utils.page_struct(utils.pfn_to_page(head + 1))
    return head, int(second["flags"]) & 0xff


class Vmas(gdb.Command):
    """A task's VMAs (range, flags; a file VMA's file, inode and offset; a
special mapping's name and kernel frames: [vdso], [vvar]) and, under
each, the folios mapped there: one line per run of pages of
one folio with its head pfn, order, whether a PMD leaf maps it, and
"shmem" or "file" for a page-cache folio.  `folio PFN` then shows a folio's rmap state.
Usage: vmas PID"""

    def __init__(self):
        super().__init__("vmas", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        pid = utils.value(arg) if arg else int(gdb.parse_and_eval(utils.current_task() + "->pid"))
        t = find_task(pid)
        root = task_root(pid)
        head = int(t["mm"]["mmap"].address)
        for vma in list_entries(head, "struct vm_area_struct", "vm_list"):
            start, end, flags = int(vma["vm_start"]), int(vma["vm_end"]), int(vma["vm_flags"])
            names = " ".join(n for bit, n in VM_FLAGS if flags & bit)
            print("%#014x-%#014x %-24s %6d KiB" % (start, end, names, (end - start) >> 10))
            if int(vma["vm_file"]):
                inode = vma["vm_file"]["f_inode"]
                print("    file %s  inode %d  offset %#x" % (
                    utils.file_name(int(vma["vm_file"])) or "?", int(inode["i_ino"]),
                    int(vma["vm_pgoff"]) << utils.PAGE_SHIFT))
            if flags & VM_PFNMAP:       # the vDSO: kernel frames by special PTEs, no folios
                sm = vma["vm_private_data"].cast(
                    gdb.lookup_type("struct vm_special_mapping").pointer())
                print("    special mapping %s  pfn %#x, %d pages" % (
                    sm["name"].string(), int(sm["pfn"]), int(sm["nr_pages"])))
                continue
            for addr, n, pfn, hpfn, order, pmd in folio_runs(root, start, end):
                zero = utils.zero_page_kind(pfn)
                kind = utils.folio_mapping(utils.page_struct(utils.pfn_to_page(hpfn)))[0]
                print("    %#014x  %4d pages  pfn %#x in folio %#x order %d%s%s" % (
                    addr, n, pfn, hpfn, order, "  (PMD leaf)" if pmd else "",
                    "  (%s)" % zero if zero else "  %s" % kind if kind != "anon" else ""))


class UserSymbols(gdb.Command):
    """Load a user program's symbols (build/user/bin/NAME, static ELF) so
that breakpoints and `bt` work in user code, e.g. `break main`.
Usage: usersyms NAME | usersyms PID   (PID: the program that task runs)"""

    def __init__(self):
        super().__init__("usersyms", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        name = arg.strip()
        if name.isdigit():
            name = find_task(int(name))["comm"].string()
        path = os.path.join("build", "user", "bin", os.path.basename(name))
        if not os.path.exists(path):
            raise gdb.GdbError("no %s (built user programs live in build/user/bin)" % path)
        gdb.execute("add-symbol-file %s" % path)


LINKER_SYMBOLS = ["_kernel_phys_start", "_kernel_end", "boot_pml4", "boot_stack_guard",
                  "boot_stack", "boot_stack_top"]


class LinkerSymbols(gdb.Command):
    """The linker-script and NASM symbols, which GDB sees without a type,
cast to addresses: each is printed and set as $NAME (e.g. $_kernel_end),
so `x/4gx $boot_stack_top - 32` works without "has unknown type".
Usage: linkersyms"""

    def __init__(self):
        super().__init__("linkersyms", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        for name in LINKER_SYMBOLS:
            try:
                addr = int(gdb.parse_and_eval("(unsigned long)&'%s'" % name))
            except gdb.error:
                continue
            gdb.set_convenience_variable(name, gdb.Value(addr).cast(
                gdb.lookup_type("unsigned long")))
            print("$%-20s = %#x" % (name, addr))


Tasks()
Vmas()
UserSymbols()
LinkerSymbols()
